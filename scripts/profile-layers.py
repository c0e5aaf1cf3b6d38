#!/usr/bin/env python3
"""Where a client's CPU goes per request, by layer: `perf record -e cpu-clock` of each client run,
`perf report --sort dso -F period,dso`, the shared objects grouped into kernel, libcurl, libc, the Swift
runtime, Concurrency and dispatch, Foundation and Courier. Clients alternate inside each round; the table
gives the median over rounds, in µs of CPU per request (process start included; perf's own overhead makes
every figure larger than /usr/bin/time's, so compare columns, not runs).

  scripts/profile-layers.py --url http://127.0.0.1:PORT/small.json [--concurrency 64] [--connections 64]
                            [--before OLD-courier]

`--connections` sets CurlTransport's connections per host for every Courier client (the C program opens one
per transfer in flight).

The server is yours to start (nginx serving `courier bench fixtures`' small.json is what BENCHMARKS.md
used). Needs the release binaries (`swift build -c release`) and perf.
"""
import argparse, os, statistics, subprocess, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".build", "release")
LAYERS = ["kernel", "libcurl", "libc", "Swift runtime", "Concurrency+dispatch", "Foundation", "Courier", "other"]


def layer(dso):
    if "kernel" in dso:
        return "kernel"
    if "libcurl" in dso:
        return "libcurl"
    if dso.startswith("libc.") or "vdso" in dso or "ld-linux" in dso or dso.startswith("libm."):
        return "libc"
    if "libswiftCore" in dso:
        return "Swift runtime"
    if "Concurrency" in dso or "dispatch" in dso:
        return "Concurrency+dispatch"
    if "Foundation" in dso:
        return "Foundation"
    if "courier" in dso:
        return "Courier"
    return "other"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--connections", type=int, help="CurlTransport's connections per host")
    parser.add_argument("--before", help="an older courier binary to profile alongside")
    args = parser.parse_args()
    n, c = str(args.requests), str(args.concurrency)
    connections = ["--connections", str(args.connections)] if args.connections else []
    run = lambda binary, *extra: [binary, "bench", "run", "--client", "curl", "--url", args.url, "--requests", n,
                                  "--concurrency", c, *connections, *extra]
    courier = os.path.join(BIN, "courier")
    clients = {"C libcurl": [os.path.join(BIN, "courier-curl-bench"), args.url, n, c]}
    if args.before:
        clients["before"] = run(args.before, "--workload", "small-raw")
    clients["tasks on the pool"] = run(courier, "--workload", "small-raw", "--executor", "default")
    clients["tasks on the loop"] = run(courier, "--workload", "small-raw", "--executor", "loop")
    clients["transport alone"] = run(courier, "--workload", "transport")
    results = {name: [] for name in clients}
    data = os.path.join(tempfile.mkdtemp(prefix="courier-profile-"), "perf.data")
    for _ in range(args.rounds):
        for name, argv in clients.items():
            subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "10000", "-o", data] + argv,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso", "--stdio",
                                     "-g", "none", "-F", "period,dso"], capture_output=True, text=True).stdout
            split = {}
            for line in report.splitlines():
                if line.startswith("#") or not line.strip():
                    continue
                period, dso = line.split()[:2]
                split[layer(dso)] = split.get(layer(dso), 0) + int(period) / 1000 / args.requests
            results[name].append(split)
    print(f"µs of client CPU per request, median of {args.rounds} alternating rounds; {args.requests} requests, "
          f"{args.concurrency} in flight, NetworkManager without decoding unless noted")
    print("\n| layer | " + " | ".join(clients) + " |")
    print("| --- |" + " ---: |" * len(clients))
    for name in LAYERS + ["total"]:
        cells = []
        for client in clients:
            values = [sum(s.values()) if name == "total" else s.get(name, 0) for s in results[client]]
            cells.append(f"{statistics.median(values):.1f}")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
