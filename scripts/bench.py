#!/usr/bin/env python3
"""Courier's benchmark harness (`make bench`).

Starts the mock server (`courier mock`) and nginx on loopback, serving the same bytes, then
drives each workload through every client, alternating the clients inside each round so that
drift on a noisy machine hits them all alike. Prints medians over the rounds and ratios
against the plain-C libcurl program, and writes the full output to BENCHMARKS.md.

Clients:
  c-multi      courier-curl-bench: plain C on libcurl's multi interface (the baseline)
  curl-nm      NetworkManager + CurlTransport (enum endpoint -> URLRequest -> send -> validate -> decode)
  curl-raw     the same without decoding (small workloads only), to separate the JSON decoder's cost
  session-nm   NetworkManager + URLSessionTransport (same path)
  curl-cli     the curl command-line tool, many URLs on one connection (outside reference)
"""
import argparse, json, os, re, shutil, signal, socket, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".build", "release")


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_measured(argv, timeout=600):
    """Runs argv under /usr/bin/time -v; returns (stdout, peak RSS in KiB, wall seconds)."""
    start = time.monotonic()
    proc = subprocess.run(["/usr/bin/time", "-v"] + argv, capture_output=True, text=True, timeout=timeout)
    wall = time.monotonic() - start
    if proc.returncode != 0 and not proc.stdout.strip().startswith("{"):
        raise RuntimeError(f"{' '.join(argv)} exited {proc.returncode}: {proc.stderr[-2000:]}")
    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    return proc.stdout, int(match.group(1)) if match else None, wall


def last_json_line(text):
    for line in reversed(text.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise RuntimeError(f"no JSON result in output: {text[-500:]}")


class Servers:
    def __init__(self, workdir):
        self.workdir = workdir
        self.procs = []

    def start_mock(self, mappings):
        proc = subprocess.Popen(
            [os.path.join(BIN, "courier"), "mock", "--port", "0", "--mappings", mappings, "--no-backend",
             "--max-body", str(4 << 30)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.procs.append(proc)
        line = proc.stdout.readline().strip()
        match = re.match(r"listening on (http://\S+)", line)
        if not match:
            raise RuntimeError(f"courier mock did not start: {line!r}")
        return match.group(1)

    def start_nginx(self, root):
        port = free_port()
        conf = os.path.join(self.workdir, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""
worker_processes 1;
pid {self.workdir}/nginx.pid;
error_log {self.workdir}/nginx-error.log;
daemon off;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {self.workdir}/nginx-body;
    proxy_temp_path {self.workdir}/nginx-proxy;
    fastcgi_temp_path {self.workdir}/nginx-fastcgi;
    uwsgi_temp_path {self.workdir}/nginx-uwsgi;
    scgi_temp_path {self.workdir}/nginx-scgi;
    keepalive_requests 1000000;
    default_type application/json;
    server {{
        listen 127.0.0.1:{port};
        root {root};
    }}
}}
""")
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        proc = subprocess.Popen([nginx, "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.procs.append(proc)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                return f"http://127.0.0.1:{port}"
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start")

    def stop(self):
        for proc in self.procs:
            proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def swift_client(client, workload, url, requests, concurrency, extra=()):
    argv = [os.path.join(BIN, "courier"), "bench", "run", "--client", client, "--workload", workload,
            "--url", url, "--requests", str(requests), "--concurrency", str(concurrency), *extra]
    out, rss, _ = run_measured(argv)
    result = last_json_line(out)
    result["rss_kib"] = rss
    return result


def c_client(url, requests, concurrency):
    out, rss, _ = run_measured([os.path.join(BIN, "courier-curl-bench"), url, str(requests), str(concurrency)])
    result = last_json_line(out)
    result["rss_kib"] = rss
    return result


def curl_cli(url, requests, concurrency, workdir):
    config = os.path.join(workdir, "curl-urls.txt")
    with open(config, "w") as f:
        for _ in range(requests):
            f.write(f'url = "{url}"\noutput = "/dev/null"\n')
    argv = [shutil.which("curl") or "curl", "-s", "-K", config]
    if concurrency > 1:
        argv += ["--parallel", "--parallel-max", str(concurrency), "--parallel-immediate"]
    _, rss, wall = run_measured(argv)
    return {"requests": requests, "errors": 0, "seconds": wall, "rps": requests / wall, "rss_kib": rss,
            "p50_ms": None, "p99_ms": None}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--big-mib", type=int, default=1024, help="size of the upload/download file")
    parser.add_argument("--output", default=os.path.join(ROOT, "BENCHMARKS.md"))
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="courier-bench-")
    os.chmod(workdir, 0o755)  # nginx's workers run as an unprivileged user and must read the files
    fixtures = os.path.join(workdir, "fixtures")
    subprocess.run([os.path.join(BIN, "courier"), "bench", "fixtures", fixtures, "--big-mib", str(args.big_mib)],
                   check=True)
    servers = Servers(workdir)
    rows = {}  # (workload, server, client) -> list of results
    try:
        mock = servers.start_mock(os.path.join(fixtures, "mappings"))
        nginx = servers.start_nginx(os.path.join(fixtures, "mappings", "__files"))
        log(f"mock server {mock}, nginx {nginx}")
        workloads = [
            ("sequential 1 KiB", "small", "small.json", args.requests, 1),
            ("64 in flight", "small", "small.json", args.requests * 2, 64),
            ("decode 500 posts", "decode", "posts.json", max(200, args.requests // 10), 1),
        ]
        for round_index in range(args.rounds):
            log(f"round {round_index + 1}/{args.rounds}")
            for title, workload, path, requests, concurrency in workloads:
                for server_name, base in (("mock", mock), ("nginx", nginx)):
                    url = f"{base}/{path}"
                    clients = [
                        ("C libcurl multi", lambda: c_client(url, requests, concurrency)),
                        ("NetworkManager + CurlTransport",
                         lambda: swift_client("curl", workload, url, requests, concurrency)),
                        ("NetworkManager + URLSessionTransport",
                         lambda: swift_client("urlsession", workload, url, requests, concurrency)),
                        ("curl CLI", lambda: curl_cli(url, requests, concurrency, workdir)),
                    ]
                    if workload == "small":
                        # The same path without JSON decoding, to separate Foundation's decoder from
                        # Courier's own cost.
                        clients.insert(2, ("NetworkManager + CurlTransport, no decoding",
                                           lambda: swift_client("curl", "small-raw", url, requests, concurrency)))
                    if workload == "decode":
                        clients = clients[:3]
                    order = clients[round_index % len(clients):] + clients[:round_index % len(clients)]
                    for name, run in order:
                        rows.setdefault((title, server_name, name), []).append(run())
        big_rounds = max(1, min(3, args.rounds))
        for round_index in range(big_rounds):
            log(f"big transfers, round {round_index + 1}/{big_rounds}")
            for client in (("curl", "NetworkManager + CurlTransport"),
                           ("urlsession", "NetworkManager + URLSessionTransport"))[::1 if round_index % 2 == 0 else -1]:
                rows.setdefault((f"{args.big_mib} MiB download to file", "nginx", client[1]), []).append(
                    swift_client(client[0], "download", f"{nginx}/big.bin", 1, 1))
                rows.setdefault((f"{args.big_mib} MiB upload from file", "mock", client[1]), []).append(
                    swift_client(client[0], "upload", f"{mock}/upload", 1, 1,
                                 extra=("--file", os.path.join(fixtures, "mappings", "__files", "big.bin"))))
    finally:
        servers.stop()

    lines = report(rows, args)
    text = "\n".join(lines) + "\n"
    print(text)
    # Keep the server section that `make bench-server` (scripts/wrk-bench.sh) maintains.
    try:
        previous = open(args.output).read()
    except FileNotFoundError:
        previous = ""
    if "\n## Server" in previous:
        text = text.rstrip("\n") + "\n\n## Server" + previous.split("\n## Server", 1)[1]
    with open(args.output, "w") as f:
        f.write(text)
    shutil.rmtree(workdir, ignore_errors=True)


def median(results, key):
    values = [r[key] for r in results if r.get(key) is not None]
    return statistics.median(values) if values else None


def fmt(value, digits=1):
    return "–" if value is None else f"{value:,.{digits}f}"


def report(rows, args):
    lines = ["# Benchmarks", "",
             f"`make bench` (scripts/bench.py, {args.rounds} rounds, clients alternated within each round), "
             f"run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {os.cpu_count()} cores. "
             "Medians over rounds; ratio is against the plain-C libcurl program on the same server and workload "
             "(for the big transfers, against CurlTransport). Peak RSS is the client process's, from /usr/bin/time -v.",
             "", "| workload | server | client | req/s | MiB/s | p50 ms | p99 ms | ratio | peak RSS MiB | errors |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for (title, server, client), results in rows.items():
        baseline_key = (title, server, "C libcurl multi")
        if baseline_key not in rows:
            baseline_key = (title, server, "NetworkManager + CurlTransport")
        base_rps = median(rows[baseline_key], "rps")
        rps = median(results, "rps")
        ratio = rps / base_rps if rps and base_rps else None
        mibps = median(results, "mib_per_s")
        rss = median(results, "rss_kib")
        errors = sum(r.get("errors", 0) or 0 for r in results)
        lines.append(f"| {title} | {server} | {client} | {fmt(rps)} | {fmt(mibps)} | {fmt(median(results, 'p50_ms'), 3)} "
                     f"| {fmt(median(results, 'p99_ms'), 3)} | {fmt(ratio, 2)} | {fmt(rss / 1024 if rss else None)} | {errors} |")
    lines += ["", "Raw results (one JSON per client run):", "", "```"]
    for key, results in rows.items():
        for r in results:
            lines.append(json.dumps({"workload": key[0], "server": key[1], "client": key[2], **r}))
    lines.append("```")
    return lines


if __name__ == "__main__":
    main()
