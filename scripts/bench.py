#!/usr/bin/env python3
"""Courier's benchmark harness (`make bench`).

Starts the mock server (`courier mock`) and nginx on loopback, serving the same bytes, then
drives each workload through every client, alternating the clients inside each round so that
drift on a noisy machine hits them all alike. Prints medians over the rounds and ratios
against the plain-C libcurl program, and writes the full output to BENCHMARKS.md.

Clients:
  c-multi      courier-curl-bench: plain C on libcurl's multi interface (the baseline)
  curl-nm      NetworkManager + CurlTransport (enum endpoint -> URLRequest -> send -> validate -> decode), by
               default settings: the requesting tasks prefer no executor, as an app's do unless it asks
  curl-raw     the same without decoding (small workloads only), to separate the JSON decoder's cost
  curl-typed   the same request declared the typed way (`API`, `Endpoint<SmallPayload>`), decoding
  curl-typed-raw  the typed request without decoding
  curl-raw-loop  curl-raw with tasks that prefer the transport's loop thread
               (`withTaskExecutorPreference(transport.executor)`): no thread is woken per request
  curl-raw-64c the same as curl-raw with 64 connections per host (64 in flight only): the C program opens
               one connection per transfer in flight, CurlTransport 8 per host unless configured
  curl-typed-64c, curl-typed-raw-64c  the typed request, with and without decoding, with 64 connections
  session-nm   NetworkManager + URLSessionTransport (same path)
  curl-cli     the curl command-line tool, many URLs on one connection (outside reference)

Every client reports its process's user and system CPU time while its requests ran (`getrusage`
around the request loop, process start excluded): the CPU-per-request table. The 1,000 and 10,000
in-flight rows give resident memory per request in flight: peak RSS over the same client's sequential
run against nginx, divided by the extra requests in flight.

Before the HTTP workloads, `courier bench decode` measures the JSON decoders alone: Foundation's
JSONDecoder against CourierJSONDecoder on the 500-post page and the 1 KiB body, alternating inside
each round. The ratios of both parts are drawn in BENCHMARKS-ratios.svg, which BENCHMARKS.md shows.
`--only decoder` runs just that part and prints it (BENCHMARKS.md is left alone).
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


IDLE = "idle baseline (one 1 KiB request)"


class cpu_hog:
    """A busy loop in a child process for the length of a `with` block: the "busy machine" rows."""

    def __enter__(self):
        self.process = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        return self

    def __exit__(self, *exc):
        self.process.kill()
        self.process.wait()


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
worker_rlimit_nofile 40000;
pid {self.workdir}/nginx.pid;
error_log {self.workdir}/nginx-error.log;
daemon off;
events {{ worker_connections 20000; }}
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
        # Its own prefix, error log, configuration and pid file: nothing of a system nginx is read or
        # signalled, and one already running (on port 80, say) is left alone. Stopped by its pid.
        proc = subprocess.Popen(
            [nginx, "-p", self.workdir, "-e", os.path.join(self.workdir, "nginx-error.log"), "-c", conf],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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


# A section of BENCHMARKS.md written by hand, which a new run keeps.
NOTES_HEADING = "\n## Where the time goes\n"

# Client key -> the name in the report.
CLIENTS = {
    "c-multi": "C libcurl multi",
    "curl-nm": "NetworkManager + CurlTransport",
    "curl-raw": "NetworkManager + CurlTransport, no decoding",
    "curl-typed": "NetworkManager + CurlTransport, typed Endpoint<T>",
    "curl-typed-raw": "NetworkManager + CurlTransport, typed Endpoint<T>, no decoding",
    "curl-raw-loop": "NetworkManager + CurlTransport, no decoding, tasks on the loop thread",
    "curl-raw-64c": "NetworkManager + CurlTransport, no decoding, 64 connections",
    "curl-typed-64c": "NetworkManager + CurlTransport, typed Endpoint<T>, 64 connections",
    "curl-typed-raw-64c": "NetworkManager + CurlTransport, typed Endpoint<T>, no decoding, 64 connections",
    "session-nm": "NetworkManager + URLSessionTransport",
    "curl-cli": "curl CLI",
}
ALL_CLIENTS = tuple(key for key in CLIENTS if not key.endswith("-64c"))
CONNECTIONS_64 = ("curl-raw-64c", "curl-typed-64c", "curl-typed-raw-64c")

# Workload key -> (requests per run -> (title, `courier bench run` workload, path, requests, in flight,
# servers, clients)). Above the connection cap (8 per host), the fair-queueing rows measure how long a
# request waits for a connection: its p99 against the fair share (in flight / throughput).
WORKLOADS = {
    "seq": lambda n: ("sequential 1 KiB", "small", "small.json", n, 1, ("mock", "nginx"), ALL_CLIENTS),
    "64": lambda n: ("64 in flight", "small", "small.json", n * 2, 64, ("mock", "nginx"),
                     ALL_CLIENTS + CONNECTIONS_64),
    "100": lambda n: ("100 in flight", "small", "small.json", n * 2, 100, ("nginx",), ("c-multi", "curl-raw")),
    "200": lambda n: ("200 in flight", "small", "small.json", n * 2, 200, ("nginx",), ("c-multi", "curl-raw")),
    "1000": lambda n: ("1,000 in flight", "small", "small.json", n * 20 // 3, 1000, ("nginx",),
                       ("c-multi", "curl-nm", "curl-raw", "curl-typed", "curl-typed-raw")),
    # The C program opens one connection per transfer in flight: 10,000 sockets (nginx is given room).
    "10000": lambda n: ("10,000 in flight", "small", "small.json", n * 10, 10000, ("nginx",),
                        ("c-multi", "curl-nm", "curl-raw", "curl-typed", "curl-typed-raw")),
    "decode": lambda n: ("decode 500 posts", "decode", "posts.json", max(200, n // 10), 1, ("mock", "nginx"),
                         ("c-multi", "curl-nm", "session-nm")),
    "big": None,  # the 1 GiB download and upload, CurlTransport against URLSessionTransport
}


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
    parser.add_argument("--decoder-rounds", type=int, default=9, help="rounds of the decoder micro-benchmark")
    parser.add_argument("--only", choices=["all", "decoder", "build"], default="all")
    parser.add_argument("--workloads", default=",".join(WORKLOADS),
                        help="comma-separated subset of: " + ", ".join(WORKLOADS))
    parser.add_argument("--clients", default=",".join(CLIENTS),
                        help="comma-separated subset of: " + ", ".join(CLIENTS))
    parser.add_argument("--servers", default="mock,nginx", help="comma-separated subset of: mock, nginx")
    args = parser.parse_args()
    chosen_workloads = set(args.workloads.split(","))
    chosen_clients = set(args.clients.split(","))
    chosen_servers = set(args.servers.split(","))
    for name in chosen_workloads - set(WORKLOADS):
        parser.error(f"unknown workload {name}")
    for name in chosen_clients - set(CLIENTS):
        parser.error(f"unknown client {name}")
    partial = (chosen_workloads != set(WORKLOADS) or chosen_clients != set(CLIENTS)
               or chosen_servers != {"mock", "nginx"})
    started = time.monotonic()

    decoder_rows = {}
    build_rows = {}
    if args.only in ("decoder", "build") or not partial:
        log(f"request-building micro-benchmark, {args.decoder_rounds} rounds")
        build_rows = build_bench(args.decoder_rounds)
    if args.only == "build":
        print("\n".join(build_report(build_rows)))
        return
    if args.only == "decoder" or not partial:
        log(f"decoder micro-benchmark, {args.decoder_rounds} rounds")
        decoder_rows = decoder_bench(args.decoder_rounds)
    if args.only == "decoder":
        print("\n".join(decoder_report(decoder_rows, "BENCHMARKS-ratios.svg", include_chart=False)))
        return

    workdir = tempfile.mkdtemp(prefix="courier-bench-")
    os.chmod(workdir, 0o755)  # nginx's workers run as an unprivileged user and must read the files
    fixtures = os.path.join(workdir, "fixtures")
    big_mib = args.big_mib if "big" in chosen_workloads else 1
    subprocess.run([os.path.join(BIN, "courier"), "bench", "fixtures", fixtures, "--big-mib", str(big_mib)],
                   check=True, stdout=subprocess.DEVNULL)
    servers = Servers(workdir)
    rows = {}  # (workload, server, client) -> list of results
    try:
        mock = servers.start_mock(os.path.join(fixtures, "mappings"))
        nginx = servers.start_nginx(os.path.join(fixtures, "mappings", "__files"))
        log(f"mock server {mock}, nginx {nginx}")
        workloads = [(key, *WORKLOADS[key](args.requests)) for key in WORKLOADS
                     if key in chosen_workloads and key != "big"]
        for round_index in range(args.rounds):
            log(f"round {round_index + 1}/{args.rounds}")
            for _, title, workload, path, requests, concurrency, server_names, client_keys in workloads:
                for server_name, base in (("mock", mock), ("nginx", nginx)):
                    if server_name not in server_names or server_name not in chosen_servers:
                        continue
                    url = f"{base}/{path}"
                    runners = {
                        "c-multi": lambda: c_client(url, requests, concurrency),
                        "curl-nm": lambda: swift_client("curl", workload, url, requests, concurrency),
                        # The same path without JSON decoding, to separate the decoder from Courier's own cost.
                        "curl-raw": lambda: swift_client("curl", "small-raw", url, requests, concurrency),
                        # The same request declared as an Endpoint<T>, with and without decoding.
                        "curl-typed": lambda: swift_client("curl", "small-typed", url, requests, concurrency),
                        "curl-typed-raw": lambda: swift_client("curl", "small-typed-raw", url, requests,
                                                               concurrency),
                        # Tasks that prefer the transport's loop thread: no thread switch a request.
                        "curl-raw-loop": lambda: swift_client("curl", "small-raw", url, requests, concurrency,
                                                              extra=("--executor", "loop")),
                        # As many connections as the C program opens for the same number in flight.
                        "curl-raw-64c": lambda: swift_client("curl", "small-raw", url, requests, concurrency,
                                                             extra=("--connections", "64")),
                        "curl-typed-64c": lambda: swift_client("curl", "small-typed", url, requests, concurrency,
                                                               extra=("--connections", "64")),
                        "curl-typed-raw-64c": lambda: swift_client("curl", "small-typed-raw", url, requests,
                                                                   concurrency, extra=("--connections", "64")),
                        "session-nm": lambda: swift_client("urlsession", workload, url, requests, concurrency),
                        "curl-cli": lambda: curl_cli(url, requests, concurrency, workdir),
                    }
                    clients = [(CLIENTS[key], runners[key]) for key in CLIENTS
                               if key in client_keys and key in chosen_clients]
                    order = clients[round_index % len(clients):] + clients[:round_index % len(clients)]
                    for name, run in order:
                        rows.setdefault((title, server_name, name), []).append(run())
        big_rounds = max(1, min(3, args.rounds)) if "big" in chosen_workloads else 0
        for round_index in range(big_rounds):
            log(f"big transfers, round {round_index + 1}/{big_rounds}")
            for client in (("curl", "NetworkManager + CurlTransport"),
                           ("urlsession", "NetworkManager + URLSessionTransport"))[::1 if round_index % 2 == 0 else -1]:
                # The process's resident baseline: one 1 KiB request, nothing big.
                rows.setdefault((IDLE, "mock", client[1]), []).append(
                    swift_client(client[0], "small-raw", f"{mock}/small.json", 1, 1))
                rows.setdefault((f"{args.big_mib} MiB download to file", "nginx", client[1]), []).append(
                    swift_client(client[0], "download", f"{nginx}/big.bin", 1, 1))
                rows.setdefault((f"{args.big_mib} MiB upload from file", "mock", client[1]), []).append(
                    swift_client(client[0], "upload", f"{mock}/upload", 1, 1,
                                 extra=("--file", os.path.join(fixtures, "mappings", "__files", "big.bin"))))
                if client[0] == "curl":
                    # FoundationNetworking cannot pause a task, so URLSessionTransport fails a stream whose
                    # consumer falls 8 buffers behind instead; only CurlTransport runs this row.
                    rows.setdefault((f"{args.big_mib} MiB stream, slow consumer", "nginx", client[1]), []).append(
                        swift_client(client[0], "stream", f"{nginx}/big.bin", 1, 1))
                # The same download while a process the harness starts keeps one core busy.
                with cpu_hog():
                    rows.setdefault((f"{args.big_mib} MiB download to file, busy machine", "nginx", client[1]),
                                    []).append(swift_client(client[0], "download", f"{nginx}/big.bin", 1, 1))
    finally:
        servers.stop()

    if partial:
        # A subset is for iterating: print the tables, leave BENCHMARKS.md alone.
        lines = report(rows, args)
        print("\n".join(lines[:lines.index("Raw results (one JSON per client run):")]))
        log(f"whole run: {time.monotonic() - started:.0f} s")
        shutil.rmtree(workdir, ignore_errors=True)
        return
    svg_name = os.path.splitext(os.path.basename(args.output))[0] + "-ratios.svg"
    lines = report(rows, args)
    lines[3:3] = [""] + decoder_report(decoder_rows, svg_name) + [""] + build_report(build_rows)
    raw_end = len(lines) - 1  # the closing ``` of the raw results
    lines[raw_end:raw_end] = [json.dumps(r) for results in decoder_rows.values() for r in results]
    lines[raw_end:raw_end] = [json.dumps(r) for results in build_rows.values() for r in results]
    lines.append("")
    lines.append(f"Whole run: {time.monotonic() - started:.0f} s.")
    with open(os.path.join(os.path.dirname(os.path.abspath(args.output)), svg_name), "w") as f:
        f.write(ratio_chart(decoder_rows, rows))
    try:
        previous = open(args.output).read()
    except FileNotFoundError:
        previous = ""
    # Keep the hand-written profile notes (the figures of a run change; where the time goes is
    # measured with perf and written by hand), before the raw results.
    if NOTES_HEADING in previous:
        notes = previous.split(NOTES_HEADING, 1)[1].split("\n## ", 1)[0]
        notes = notes.split("\nRaw results (one JSON per client run):", 1)[0].strip("\n")
        raw_start = lines.index("Raw results (one JSON per client run):")
        lines[raw_start:raw_start] = [NOTES_HEADING.strip("\n"), "", notes, ""]
    text = "\n".join(lines) + "\n"
    print(text)
    # Keep the server section that `make bench-server` (scripts/wrk-bench.sh) maintains.
    if "\n## Server" in previous:
        text = text.rstrip("\n") + "\n\n## Server" + previous.split("\n## Server", 1)[1]
    with open(args.output, "w") as f:
        f.write(text)
    shutil.rmtree(workdir, ignore_errors=True)


def decoder_bench(rounds):
    """Runs `courier bench decode`; returns {(payload, decoder): [result per round]}."""
    out, _, _ = run_measured([os.path.join(BIN, "courier"), "bench", "decode", "--rounds", str(rounds)])
    rows = {}
    for line in out.splitlines():
        if line.startswith("{"):
            result = json.loads(line)
            rows.setdefault((result["payload"], result["decoder"]), []).append(result)
    return rows


def build_bench(rounds):
    """Runs `courier bench build`; returns {"typed" or "classic": [result per round]}."""
    out, _, _ = run_measured([os.path.join(BIN, "courier"), "bench", "build", "--rounds", str(rounds)])
    rows = {}
    for line in out.splitlines():
        if line.startswith("{") and '"path"' in line:
            result = json.loads(line)
            rows.setdefault(result["path"], []).append(result)
    return rows


def build_report(rows):
    """The request-building table: microseconds per call on each path, and typed over classic per round."""
    rounds = len(rows.get("typed", []))
    ratios = [t["us_per_call"] / c["us_per_call"] for t, c in zip(rows.get("typed", []), rows.get("classic", []))]
    lines = ["## Building a request", "",
             f"`courier bench build` ({rounds} rounds, the two paths alternating inside each round, CPU time of the "
             "thread): the same `GET /posts?pageNumber=N&size=20` built from `PostsEndPoint.page(pageNumber:size:)` "
             "(an `Endpoint<PostsPage>`) and from an `APIConfigurable` enum, each to a `TransportRequest`.", "",
             "| path | µs per call, median (min–max) |", "| --- | --- |"]
    for path, title in (("typed", "typed `Endpoint<T>`"), ("classic", "classic `APIConfigurable`")):
        lines.append(f"| {title} | {spread([r['us_per_call'] for r in rows.get(path, [])], 2)} |")
    if ratios:
        lines += ["", f"Typed over classic, per round: {spread(ratios, 2)}×."]
    return lines


def spread(values, digits=1):
    """"median (min–max)" of values."""
    if not values:
        return "–"
    return f"{fmt(statistics.median(values), digits)} ({fmt(min(values), digits)}–{fmt(max(values), digits)})"


def decoder_ratios(rows, payload):
    """Courier's MB/s over Foundation's, round by round (both measured in the same round)."""
    foundation = {r["round"]: r["mb_per_s"] for r in rows.get((payload, "Foundation JSONDecoder"), [])}
    courier = {r["round"]: r["mb_per_s"] for r in rows.get((payload, "CourierJSONDecoder"), [])}
    return [courier[k] / foundation[k] for k in sorted(foundation) if k in courier and foundation[k]]


def decoder_payloads(rows):
    return list(dict.fromkeys(payload for payload, _ in rows))


def decoder_report(rows, svg_name, include_chart=True):
    rounds = max((len(v) for v in rows.values()), default=0)
    lines = ["## JSON decoder", "",
             f"`courier bench decode` ({rounds} rounds, the two decoders alternating inside each round, in one "
             "release-built process; both configured as Courier configures them, ISO 8601 dates; the payloads are "
             "the bench's own `posts.json` and `small.json`). MB/s per second of the decoding thread's CPU time "
             "(`CLOCK_THREAD_CPUTIME_ID`: time the thread lost to other processes on this shared machine is not "
             "counted), as median (min–max) over rounds; the ratio is CourierJSONDecoder over Foundation's "
             "JSONDecoder within each round.", "",
             "| payload | bytes | Foundation JSONDecoder MB/s | CourierJSONDecoder MB/s | ratio |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for payload in decoder_payloads(rows):
        foundation = [r["mb_per_s"] for r in rows.get((payload, "Foundation JSONDecoder"), [])]
        courier = [r["mb_per_s"] for r in rows.get((payload, "CourierJSONDecoder"), [])]
        size = rows[(payload, "CourierJSONDecoder")][0]["bytes"]
        lines.append(f"| {payload} | {size:,} | {spread(foundation)} | {spread(courier)} | "
                     f"{spread(decoder_ratios(rows, payload), 2)}× |")
    if include_chart:
        lines += ["", f"![Ratios: decoders, and each client against plain C on libcurl]({svg_name})"]
    return lines


def ratio_chart(decoder_rows, rows):
    """A small SVG of the ratios: median bars with min–max whiskers."""
    bars = []  # (group, label, median, low, high, target)
    for payload in decoder_payloads(decoder_rows):
        values = decoder_ratios(decoder_rows, payload)
        if values:
            bars.append(("decoder vs Foundation", f"CourierJSONDecoder, {payload}", statistics.median(values),
                         min(values), max(values), 3.0))
    for (title, server, client), results in rows.items():
        if title == IDLE:
            continue
        against_c = (title, server, "C libcurl multi") in rows
        baseline = "C libcurl multi" if against_c else "NetworkManager + CurlTransport"
        if client in (baseline, "curl CLI") or (against_c and server != "nginx"):
            continue
        values = round_ratios(rows, (title, server, client))
        if values:
            group = f"{title} ({server}) vs " + ("C libcurl" if against_c else "CurlTransport")
            bars.append((group, client.replace("NetworkManager + ", ""), statistics.median(values),
                         min(values), max(values), None))
    width, left, right, row_height, top = 760, 330, 30, 22, 30
    height = top + row_height * (len(bars) + len({b[0] for b in bars})) + 30
    scale_max = max([1.0] + [b[4] for b in bars] + [b[5] or 0 for b in bars]) * 1.05
    x = lambda value: left + (width - left - right) * value / scale_max
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="10" y="18" font-weight="bold">Ratios (median bar, min–max whisker); 1.0 = the baseline</text>']
    y = top
    group = None
    for name, label, med, low, high, target in bars:
        if name != group:
            group = name
            out.append(f'<text x="10" y="{y + 15}" font-style="italic">{name}</text>')
            y += row_height
        out.append(f'<text x="{left - 8}" y="{y + 15}" text-anchor="end">{label}</text>')
        out.append(f'<rect x="{left}" y="{y + 4}" width="{x(med) - left:.1f}" height="{row_height - 8}" '
                   f'fill="#4a7fb5"/>')
        out.append(f'<line x1="{x(low):.1f}" x2="{x(high):.1f}" y1="{y + 11}" y2="{y + 11}" stroke="black"/>')
        out.append(f'<text x="{x(high) + 4:.1f}" y="{y + 15}">{med:.2f}×</text>')
        if target:
            out.append(f'<line x1="{x(target):.1f}" x2="{x(target):.1f}" y1="{y + 2}" y2="{y + row_height - 2}" '
                       f'stroke="#c0392b" stroke-dasharray="3,2"/>')
        y += row_height
    out.append(f'<line x1="{x(1.0):.1f}" x2="{x(1.0):.1f}" y1="{top}" y2="{y}" stroke="#888" stroke-dasharray="4,3"/>')
    out.append(f'<text x="{x(1.0):.1f}" y="{y + 15}" text-anchor="middle">1.0</text>')
    out.append(f'<text x="{width - right}" y="{y + 15}" text-anchor="end" fill="#c0392b">red dashes: the 3× target</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def round_ratios(rows, key):
    """The row's req/s over its baseline's, round by round."""
    title, server, _ = key
    baseline_key = (title, server, "C libcurl multi")
    if baseline_key not in rows:
        baseline_key = (title, server, "NetworkManager + CurlTransport")
    return [r["rps"] / b["rps"] for r, b in zip(rows[key], rows[baseline_key]) if r.get("rps") and b.get("rps")]


def memory_report(rows):
    """Each big transfer's peak RSS over the same client's idle baseline, round by round."""
    lines = ["", "## Memory over the idle baseline", "",
             "Peak RSS of the big-transfer runs minus the same client's idle baseline (a process that sent one "
             "1 KiB request), round by round; median (min–max) MiB.", "",
             "| transfer | client | idle baseline MiB | added MiB |", "| --- | --- | ---: | ---: |"]
    for (title, server, client), results in rows.items():
        baseline = rows.get((IDLE, "mock", client))
        if title == IDLE or not baseline or "MiB" not in title:
            continue
        added = [(r["rss_kib"] - b["rss_kib"]) / 1024 for r, b in zip(results, baseline)
                 if r.get("rss_kib") and b.get("rss_kib")]
        idle = median(baseline, "rss_kib")
        lines.append(f"| {title} | {client} | {fmt(idle / 1024 if idle else None)} | {spread(added)} |")
    return lines


def median(results, key):
    values = [r[key] for r in results if r.get(key) is not None]
    return statistics.median(values) if values else None


def fmt(value, digits=1):
    return "–" if value is None else f"{value:,.{digits}f}"


FAIR_CLIENTS = ("c-multi", "curl-nm", "curl-raw", "curl-typed", "curl-typed-raw")


def fair_share_report(rows, args):
    """p99 latency against the fair share (in flight / throughput) where requests outnumber connections."""
    in_flight = {spec[0]: spec[4] for spec in (make(args.requests) for make in WORKLOADS.values() if make)}
    lines = ["## Fair queueing", "",
             "Above CurlTransport's 8 connections per host, requests wait for a connection. Served in order, "
             "none waits much longer than its fair share of the run: in flight ÷ throughput. Against nginx; "
             "median (min–max) over rounds, the ratio taken round by round.", "",
             "| in flight | client | req/s | p50 ms | p99 ms | fair share ms | p99 ÷ fair share |",
             "| ---: | --- | ---: | ---: | ---: | ---: | ---: |"]
    for (title, server, client), results in rows.items():
        count = in_flight.get(title, 1)
        if server != "nginx" or count < 64 or client not in (CLIENTS[key] for key in FAIR_CLIENTS):
            continue
        fair = [count / r["rps"] * 1000 for r in results if r.get("rps")]
        ratios = [r["p99_ms"] / (count / r["rps"] * 1000) for r in results if r.get("rps") and r.get("p99_ms")]
        lines.append(f"| {count:,} | {client} | {spread([r['rps'] for r in results if r.get('rps')])} | "
                     f"{fmt(median(results, 'p50_ms'), 2)} | {spread([r['p99_ms'] for r in results if r.get('p99_ms')], 2)} | "
                     f"{fmt(statistics.median(fair) if fair else None, 2)} | {spread(ratios, 2)} |")
    return lines if len(lines) > 6 else []


CPU_CLIENTS = ("c-multi", "curl-raw", "curl-nm", "curl-typed-raw", "curl-typed", "curl-typed-64c",
               "curl-typed-raw-64c")


def cpu_report(rows):
    """User and system CPU per request (getrusage around the request loop), against the C program's."""
    lines = ["## CPU per request", "",
             "The client process's user and system CPU time while its requests ran (`getrusage` around the "
             "request loop, so process start and exit are not counted), divided by the requests; median "
             "(min–max) µs over rounds against nginx. The ratio is the client's CPU per request over the C "
             "program's, round by round.", "",
             "| workload | client | user µs | system µs | total µs | ratio to C |",
             "| --- | --- | ---: | ---: | ---: | ---: |"]
    for (title, server, client), results in rows.items():
        if server != "nginx" or client not in (CLIENTS[key] for key in CPU_CLIENTS):
            continue
        baseline = rows.get((title, server, CLIENTS["c-multi"]))
        if not baseline or not any("user_s" in r for r in results):
            continue
        per = lambda r, keys: sum(r[k] for k in keys) / r["requests"] * 1e6
        measured = [r for r in results if "user_s" in r]
        ratios = [per(r, ("user_s", "sys_s")) / per(b, ("user_s", "sys_s")) for r, b in zip(results, baseline)
                  if "user_s" in r and "user_s" in b and b["user_s"] + b["sys_s"] > 0]
        lines.append(f"| {title} | {client} | {spread([per(r, ('user_s',)) for r in measured])} | "
                     f"{spread([per(r, ('sys_s',)) for r in measured])} | "
                     f"{spread([per(r, ('user_s', 'sys_s')) for r in measured])} | {spread(ratios, 2)} |")
    return lines if len(lines) > 6 else []


def in_flight_memory_report(rows, args):
    """Resident memory per request in flight: peak RSS over the client's sequential run, per extra request."""
    in_flight = {spec[0]: spec[4] for spec in (make(args.requests) for make in WORKLOADS.values() if make)}
    sequential = WORKLOADS["seq"](args.requests)[0]
    lines = ["## Memory per request in flight", "",
             "Peak RSS of a run with N requests in flight against nginx, minus the same client's peak RSS in "
             "the sequential run of the same round, divided by N − 1; median (min–max) KiB over rounds.", "",
             "| in flight | client | peak RSS MiB | KiB per request in flight |", "| ---: | --- | ---: | ---: |"]
    for (title, server, client), results in rows.items():
        count = in_flight.get(title, 1)
        baseline = rows.get((sequential, server, client))
        if server != "nginx" or count < 1000 or not baseline:
            continue
        per = [(r["rss_kib"] - b["rss_kib"]) / (count - 1) for r, b in zip(results, baseline)
               if r.get("rss_kib") and b.get("rss_kib")]
        rss = median(results, "rss_kib")
        lines.append(f"| {count:,} | {client} | {fmt(rss / 1024 if rss else None)} | {spread(per, 2)} |")
    return lines if len(lines) > 6 else []


def report(rows, args):
    lines = ["# Benchmarks", "",
             f"`make bench` (scripts/bench.py, {args.rounds} rounds, clients alternated within each round), "
             f"run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {os.cpu_count()} cores. "
             "Medians over rounds; ratio is against the plain-C libcurl program on the same server and workload "
             "(for the big transfers, against CurlTransport). Peak RSS is the client process's, from /usr/bin/time -v.",
             "", "## Clients", "",
             "req/s and ratio as median (min–max) over rounds; the ratio is taken round by round.",
             "", "| workload | server | client | req/s | MiB/s | p50 ms | p99 ms | ratio | peak RSS MiB | errors |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for (title, server, client), results in rows.items():
        mibps = median(results, "mib_per_s")
        rss = median(results, "rss_kib")
        errors = sum(r.get("errors", 0) or 0 for r in results)
        rps_text = spread([r["rps"] for r in results if r.get("rps")])
        ratio_text = spread(round_ratios(rows, (title, server, client)), 2)
        lines.append(f"| {title} | {server} | {client} | {rps_text} | {fmt(mibps)} | {fmt(median(results, 'p50_ms'), 3)} "
                     f"| {fmt(median(results, 'p99_ms'), 3)} | {ratio_text} | {fmt(rss / 1024 if rss else None)} | {errors} |")
    fair = fair_share_report(rows, args)
    if fair:
        lines += [""] + fair
    cpu = cpu_report(rows)
    if cpu:
        lines += [""] + cpu
    in_flight_memory = in_flight_memory_report(rows, args)
    if in_flight_memory:
        lines += [""] + in_flight_memory
    lines += memory_report(rows)
    lines += ["", "Raw results (one JSON per client run):", "", "```"]
    for key, results in rows.items():
        for r in results:
            lines.append(json.dumps({"workload": key[0], "server": key[1], "client": key[2], **r}))
    lines.append("```")
    return lines


if __name__ == "__main__":
    main()
