#!/usr/bin/env bash
# Instructions per request of the mock server under wrk, counted by callgrind (load-independent).
#
# Usage: scripts/wrk-count.sh [--requests N] [--connections C] [--threads T] [--binary COURIER] [--keep DIR]
#
# Serves the same stub as scripts/wrk-bench.sh from `courier mock` running under
# `valgrind --tool=callgrind`, warms it with a few thousand requests, zeroes the counters, then sends
# exactly --requests requests (20,000 by default) from wrk at --connections connections (64) and dumps
# the counters. It prints one line: user-space instructions (Ir) and malloc calls per request, over every
# thread of the server (the kernel's work is not counted). --keep DIR keeps the callgrind output there
# for callgrind_annotate. Needs valgrind, wrk, a C compiler and the release build of courier.
# Not a test: nothing here asserts.
set -euo pipefail

REQUESTS=20000
CONNECTIONS=64
THREADS=2
BINARY=""
KEEP=""
while [ $# -gt 0 ]; do
    case "$1" in
        --requests) REQUESTS="$2"; shift 2 ;;
        --connections) CONNECTIONS="$2"; shift 2 ;;
        --threads) THREADS="$2"; shift 2 ;;
        --binary) BINARY="$2"; shift 2 ;;
        --keep) KEEP="$2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD=0
BASELINE=""
# shellcheck source=scripts/wrk-lib.sh
source "$ROOT/scripts/wrk-lib.sh"
if [ -z "$BINARY" ]; then
    find_courier
    BINARY="$COURIER"
fi
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }

WORK="$(mktemp -d /tmp/courier-wrk-count.XXXXXX)"
MOCK_PID=""
cleanup() {
    [ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null && wait "$MOCK_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# Valgrind 3.19 writes into the mask given to rt_sigsuspend, which libdispatch keeps in read-only
# memory: a preloaded sigsuspend passes a writable copy (as scripts/count-instructions.py does).
cat > "$WORK/shim.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
int sigsuspend(const sigset_t *mask) {
    static int (*real)(const sigset_t *);
    if (!real) real = (int (*)(const sigset_t *))dlsym(RTLD_NEXT, "sigsuspend");
    sigset_t copy = *mask;
    return real(&copy);
}
C
cc -shared -fPIC -o "$WORK/shim.so" "$WORK/shim.c" -ldl

mkdir -p "$WORK/mappings/mappings" "$WORK/mappings/__files"
printf '{"id":42,"name":"courier","tags":["http","mock","benchmark"],"ok":true}\n' > "$WORK/mappings/__files/hello.json"
cat > "$WORK/mappings/mappings/hello.json" <<'JSON'
{
  "request": { "method": "GET", "url": "/hello.json" },
  "response": { "status": 200, "headers": { "Content-Type": "application/json" }, "bodyFileName": "hello.json" }
}
JSON

LD_PRELOAD="$WORK/shim.so" valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.out.%p" \
    "$BINARY" mock --port 0 --mappings "$WORK/mappings" --no-backend > "$WORK/mock.log" 2>&1 &
MOCK_PID=$!
for _ in $(seq 1 600); do
    grep -q "listening on" "$WORK/mock.log" 2>/dev/null && break
    kill -0 "$MOCK_PID" 2>/dev/null || break
    sleep 0.1
done
URL="$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$WORK/mock.log" | head -1)"
[ -n "$URL" ] || { echo "courier mock did not start under valgrind:" >&2; cat "$WORK/mock.log" >&2; exit 1; }

# Sends exactly $1 requests (wrk stops each thread after its share) and prints wrk's figures.
drive() {
    local per_thread=$(( ($1 + THREADS - 1) / THREADS ))
    write_stop_script "$per_thread"
    wrk -t"$THREADS" -c"$CONNECTIONS" -d600s -s "$WORK/stop.lua" "$URL/hello.json" > "$WORK/wrk.txt" &
    local wrk_pid=$!
    while kill -0 "$wrk_pid" 2>/dev/null && [ "$(wc -l < "$WORK/stopped.txt")" -lt "$THREADS" ]; do sleep 0.05; done
    kill -INT "$wrk_pid" 2>/dev/null || true
    wait "$wrk_pid" || true
    parse_wrk < "$WORK/wrk.txt"
}

drive 4000 > /dev/null
sleep 1
callgrind_control --zero "$MOCK_PID" > /dev/null
read -r _ _ errors non2xx sent < <(drive "$REQUESTS")
callgrind_control --dump=measured "$MOCK_PID" > /dev/null
sleep 1
kill "$MOCK_PID" 2>/dev/null && wait "$MOCK_PID" 2>/dev/null || true
MOCK_PID=""

# Every thread's part of the dump, summed: instructions, and calls to malloc.
python3 - "$WORK" "$sent" "$errors" "$non2xx" "$CONNECTIONS" <<'PY'
import glob, os, re, sys
work, sent, errors, non2xx, connections = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
total = mallocs = 0
files = [f for f in glob.glob(os.path.join(work, "callgrind.out.*")) if open(f, errors="replace").read(4000).find("measured") >= 0]
for path in files:
    names, callee = {}, None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("summary:"):
                total += int(line.split()[1])
            m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
            if m:
                if m.group(3):
                    names[m.group(2)] = m.group(3).strip()
                if m.group(1) == "cfn":
                    callee = names.get(m.group(2))
            elif line.startswith("calls=") and callee == "malloc":
                mallocs += int(line[6:].split()[0])
print(f'{{"requests":{sent},"connections":{connections},"errors":{errors},"non2xx":{non2xx},'
      f'"instructions_per_request":{total / max(1, sent):.0f},"mallocs_per_request":{mallocs / max(1, sent):.2f},'
      f'"files":{len(files)}}}')
PY
if [ -n "$KEEP" ]; then
    mkdir -p "$KEEP"
    cp "$WORK"/callgrind.out.* "$KEEP"/
fi
