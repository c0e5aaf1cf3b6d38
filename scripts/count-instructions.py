#!/usr/bin/env python3
"""Instructions, allocations and libcurl option calls per request, counted by callgrind.

Wall-clock figures on a shared machine move with whatever else runs; instruction counts do not.
This runs `courier bench run` (or the C program) under `valgrind --tool=callgrind` twice, with a
small and a large request count, and divides the difference by the extra requests, so that process
start and exit cancel out:

  scripts/count-instructions.py --url http://127.0.0.1:PORT/small.json [--workload small-typed-raw]
                                [--executor default|loop|global] [--binary OTHER-courier] [--c]

It prints one JSON line: instructions (`Ir`, user space only: the kernel's work for a context switch
is not counted), `malloc` and `curl_easy_setopt` calls and `swift_task_switch` calls, each per request.
`--c` counts the plain-C libcurl program instead. The server is yours to start (nginx serving
`courier bench fixtures`' small.json is what BENCHMARKS.md used); needs valgrind, a C compiler and
the release binaries (`swift build -c release --product courier`, `--product courier-curl-bench`).

Valgrind 3.19 writes into the signal mask that `rt_sigsuspend` is given, and libdispatch parks a Swift
program's main thread with a mask in read-only memory, so valgrind crashes on any Swift program that
uses Dispatch. A preloaded `sigsuspend` that passes a writable copy of the mask avoids that; it is
compiled into a temporary folder on each run.
"""
import argparse, json, os, re, subprocess, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".build", "release")
COUNTED = ("malloc", "curl_easy_setopt", "swift_task_switch")

SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
int sigsuspend(const sigset_t *mask) {
    static int (*real)(const sigset_t *);
    if (!real) real = (int (*)(const sigset_t *))dlsym(RTLD_NEXT, "sigsuspend");
    sigset_t copy = *mask;
    return real(&copy);
}
"""


def totals(path):
    """Total instructions and the calls to each counted function, from a callgrind output file."""
    names, calls, total, callee = {}, dict.fromkeys(COUNTED, 0), 0, None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
            match = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
            if match:
                if match.group(3):
                    names[match.group(2)] = match.group(3).strip()
                if match.group(1) == "cfn":
                    callee = names.get(match.group(2))
            elif line.startswith("calls=") and callee in calls:
                calls[callee] += int(line[6:].split()[0])
    return total, calls


def count(argv, workdir, shim, keep=None):
    out = keep or os.path.join(workdir, "callgrind.out")
    env = dict(os.environ, LD_PRELOAD=shim)
    proc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + argv,
                          env=env, capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0 or '"errors":0' not in proc.stdout:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr[-3000:]}")
    return totals(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--workload", default="small-typed-raw")
    parser.add_argument("--executor", default="default")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--requests", type=int, default=1000, help="the extra requests of the large run")
    parser.add_argument("--connections", type=int,
                        help="CurlTransport's connections per host (default: the transport's own, 8)")
    parser.add_argument("--binary", default=os.path.join(BIN, "courier"))
    parser.add_argument("--c", action="store_true", help="count the plain-C libcurl program instead")
    parser.add_argument("--keep", metavar="FILE",
                        help="keep the two runs' callgrind outputs as FILE.small and FILE.large (for callgrind_annotate)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="courier-count-") as workdir:
        shim = os.path.join(workdir, "sigsuspend.so")
        with open(os.path.join(workdir, "sigsuspend.c"), "w") as f:
            f.write(SHIM)
        subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", shim, os.path.join(workdir, "sigsuspend.c"), "-ldl"],
                       check=True)

        def argv(n):
            if args.c:
                return [os.path.join(BIN, "courier-curl-bench"), args.url, str(n), str(args.concurrency)]
            return [args.binary, "bench", "run", "--client", "curl", "--workload", args.workload, "--url", args.url,
                    "--requests", str(n), "--concurrency", str(args.concurrency), "--executor", args.executor] + (
                        ["--connections", str(args.connections)] if args.connections else [])

        # The small run has at least as many requests as are in flight, so that both runs have the same
        # concurrency and the difference is the extra requests' alone.
        small_n = max(100, args.concurrency)
        small = count(argv(small_n), workdir, shim, args.keep and args.keep + ".small")
        large = count(argv(small_n + args.requests), workdir, shim, args.keep and args.keep + ".large")
    per = {"instructions": (large[0] - small[0]) / args.requests}
    per.update({name: (large[1][name] - small[1][name]) / args.requests for name in COUNTED})
    client = "C libcurl multi" if args.c else f"{os.path.basename(args.binary)} {args.workload} --executor {args.executor}"
    print(json.dumps({"client": client, "concurrency": args.concurrency, "requests": args.requests,
                      **{k: round(v, 1) for k, v in per.items()}}))


if __name__ == "__main__":
    main()
