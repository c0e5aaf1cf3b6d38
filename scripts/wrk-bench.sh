#!/usr/bin/env bash
# wrk benchmark: Courier's mock server vs nginx, serving the same small JSON file on loopback.
#
# Usage: scripts/wrk-bench.sh [--duration SECONDS] [--rounds N] [--connections "C1 C2 ..."] [--threads T]
#                             [--requests N] [--memory-connections C] [--baseline COURIER] [--no-build]
#                             [--no-record]
#
# For each connection count (64, 256 and 1024 by default) it runs wrk against each server alternately in
# the same run (mock, nginx, then nginx, mock, ...) and prints the request rates, p99 latencies, socket
# errors, non-2xx answers and the mock/nginx ratio. Then one run of --requests requests (1,000,000 by
# default; 0 skips it) against the mock alone, sampling its resident memory (VmRSS) from /proc as it goes.
# --baseline COURIER serves a second mock from another build of courier in the same rounds, for A/B
# comparisons between builds. The report replaces BENCHMARKS.md's server section unless --no-record.
# Not a test: nothing here asserts.
set -euo pipefail

DURATION=10
ROUNDS=3
CONNECTION_SET="64 256 1024"
THREADS=2
REQUESTS=1000000
MEMORY_CONNECTIONS=256
BASELINE=""
BUILD=1
RECORD=1
ARGS="$*"
while [ $# -gt 0 ]; do
    case "$1" in
        --duration) DURATION="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        --connections) CONNECTION_SET="$2"; shift 2 ;;
        --threads) THREADS="$2"; shift 2 ;;
        --requests) REQUESTS="$2"; shift 2 ;;
        --memory-connections) MEMORY_CONNECTIONS="$2"; shift 2 ;;
        --baseline) BASELINE="$2"; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --no-record) RECORD=0; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/wrk-lib.sh
source "$ROOT/scripts/wrk-lib.sh"
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
[ -x "$NGINX" ] || { echo "nginx is not installed (apt-get install nginx)" >&2; exit 1; }

find_courier

WORK="$(mktemp -d /tmp/courier-wrk.XXXXXX)"
chmod 755 "$WORK"  # nginx workers may run as another user
MOCK_PID=""
BASE_PID=""
NGINX_PID=""
SAMPLER_PID=""
cleanup() {
    [ -n "$SAMPLER_PID" ] && kill "$SAMPLER_PID" 2>/dev/null && wait "$SAMPLER_PID" 2>/dev/null || true
    [ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null && wait "$MOCK_PID" 2>/dev/null || true
    [ -n "$BASE_PID" ] && kill "$BASE_PID" 2>/dev/null && wait "$BASE_PID" 2>/dev/null || true
    # Only the nginx this script started, by its pid; a system nginx is left alone.
    [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# The same bytes for both servers: a small JSON document.
mkdir -p "$WORK/mappings/mappings" "$WORK/mappings/__files" "$WORK/www"
printf '{"id":42,"name":"courier","tags":["http","mock","benchmark"],"ok":true}\n' > "$WORK/mappings/__files/hello.json"
cp "$WORK/mappings/__files/hello.json" "$WORK/www/hello.json"
cat > "$WORK/mappings/mappings/hello.json" <<'JSON'
{
  "request": { "method": "GET", "url": "/hello.json" },
  "response": { "status": 200, "headers": { "Content-Type": "application/json" }, "bodyFileName": "hello.json" }
}
JSON

# A courier mock: stubs only (no social backend), port 0, first line names the real port.
# Sets STARTED_PID and STARTED_URL.
start_mock() {
    local binary="$1" log="$2"
    "$binary" mock --port 0 --mappings "$WORK/mappings" --no-backend > "$log" 2>&1 &
    STARTED_PID=$!
    for _ in $(seq 1 100); do
        grep -q "listening on" "$log" 2>/dev/null && break
        sleep 0.1
    done
    STARTED_URL="$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$log" | head -1)"
    [ -n "$STARTED_URL" ] || { echo "courier mock ($binary) did not start:" >&2; cat "$log" >&2; exit 1; }
}
start_mock "$COURIER" "$WORK/mock.log"
MOCK_PID="$STARTED_PID"
MOCK_URL="$STARTED_URL"
BASE_URL=""
if [ -n "$BASELINE" ]; then
    start_mock "$BASELINE" "$WORK/base.log"
    BASE_PID="$STARTED_PID"
    BASE_URL="$STARTED_URL"
fi

# nginx on a free port, same file, keep-alive on, no access log.
NGINX_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
cat > "$WORK/nginx.conf" <<CONF
worker_processes auto;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $WORK/nginx-body;
    proxy_temp_path $WORK/nginx-proxy;
    fastcgi_temp_path $WORK/nginx-fastcgi;
    uwsgi_temp_path $WORK/nginx-uwsgi;
    scgi_temp_path $WORK/nginx-scgi;
    keepalive_requests 1000000;
    types { application/json json; }
    server {
        listen 127.0.0.1:$NGINX_PORT;
        root $WORK/www;
    }
}
CONF
# Its own prefix, error log, configuration and pid file, in the foreground of a background job: nothing
# of a system nginx is read or signalled, and one already running (on port 80, say) is left alone.
"$NGINX" -p "$WORK" -e "$WORK/nginx-error.log" -c "$WORK/nginx.conf" -g 'daemon off;' &
NGINX_PID=$!
NGINX_URL="http://127.0.0.1:$NGINX_PORT"
for _ in $(seq 1 100); do
    curl -s -o /dev/null "$NGINX_URL/" && break
    kill -0 "$NGINX_PID" 2>/dev/null || break
    sleep 0.05
done

# Every server must serve the same bytes before anything is measured.
curl -sf "$NGINX_URL/hello.json" -o "$WORK/nginx.body" || { echo "nginx does not serve the file:" >&2; cat "$WORK/nginx-error.log" >&2; exit 1; }
for url in "$MOCK_URL" $BASE_URL; do
    curl -sf "$url/hello.json" -o "$WORK/mock.body" || { echo "courier mock ($url) does not serve the stub" >&2; exit 1; }
    cmp -s "$WORK/mock.body" "$WORK/nginx.body" || { echo "the servers do not serve the same bytes" >&2; exit 1; }
done

SERVERS=(mock)
[ -n "$BASELINE" ] && SERVERS+=(base)
SERVERS+=(nginx)
url_of() {
    case "$1" in
        mock) echo "$MOCK_URL" ;;
        base) echo "$BASE_URL" ;;
        nginx) echo "$NGINX_URL" ;;
    esac
}

# One wrk run of DURATION seconds at $2 connections against $1.
measure() {
    wrk -t"$THREADS" -c"$2" -d"${DURATION}s" --latency "$1/hello.json" | tee "$WORK/last-wrk.txt" | parse_wrk
}

mean() { printf '%s\n' "$@" | awk '{ s += $1 } END { printf "%.0f", s / NR }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) printf "%.0f", v[(NR + 1) / 2]; else printf "%.0f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
worst() { printf '%s\n' "$@" | sort -g | tail -1; }
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }

# Throughput at each connection count, servers alternating (reversed every other round, so that no
# server always runs right after the same one).
throughput() {
    local connections="$1" round server rate p99 errors non2xx requests order
    declare -A rates p99s errs non2xxs
    for round in $(seq 1 "$ROUNDS"); do
        if [ $((round % 2)) = 1 ]; then order=("${SERVERS[@]}")
        else order=(); for ((i = ${#SERVERS[@]} - 1; i >= 0; i--)); do order+=("${SERVERS[i]}"); done; fi
        for server in "${order[@]}"; do
            read -r rate p99 errors non2xx requests <<< "$(measure "$(url_of "$server")" "$connections")"
            printf '%-11s %-6s %-6s %12s %10s %8s %8s\n' "$connections" "$round" "$server" "$rate" "$p99" "$errors" "$non2xx"
            rates[$server]+="$rate "
            p99s[$server]+="$p99 "
            errs[$server]=$(( ${errs[$server]:-0} + errors ))
            non2xxs[$server]=$(( ${non2xxs[$server]:-0} + non2xx ))
        done
    done
    for server in "${SERVERS[@]}"; do
        # shellcheck disable=SC2086
        printf '%s %s %s %s %s\n' "$server" "$(mean ${rates[$server]})" "$(worst ${p99s[$server]})" \
            "${errs[$server]}" "${non2xxs[$server]}" >> "$WORK/summary-$connections.txt"
        # shellcheck disable=SC2086
        printf '%s\n' ${rates[$server]} > "$WORK/rates-$connections-$server.txt"
    done
}

# The ratio of two servers' means, and the range of the per-round ratios.
ratios() {
    local connections="$1" a="$2" b="$3"
    paste "$WORK/rates-$connections-$a.txt" "$WORK/rates-$connections-$b.txt" | awk '
        { sa += $1; sb += $2; r = $1 / $2; if (NR == 1 || r < lo) lo = r; if (NR == 1 || r > hi) hi = r }
        END { printf "%.2f (rounds %.2f-%.2f)", sa / sb, lo, hi }'
}

# One run of REQUESTS requests against the mock (wrk stops each thread after its share), sampling the
# mock's VmRSS four times a second.
memory_run() {
    local per_thread=$(( (REQUESTS + THREADS - 1) / THREADS ))
    # A thread that has had its share stops and says so in a file; wrk's main thread only wakes at the end
    # of -d or on SIGINT, so the script sends SIGINT once every thread has said so.
    write_stop_script "$per_thread"
    local before
    before="$(rss_kib "$MOCK_PID")"
    : > "$WORK/rss.txt"
    (
        while true; do
            echo "$(date +%s.%N) $(rss_kib "$MOCK_PID")" >> "$WORK/rss.txt"
            sleep 0.25
        done
    ) &
    SAMPLER_PID=$!
    # The duration only bounds the run; the script stops it at REQUESTS.
    wrk -t"$THREADS" -c"$MEMORY_CONNECTIONS" -d600s --latency -s "$WORK/stop.lua" "$MOCK_URL/hello.json" \
        > "$WORK/memory-wrk.txt" &
    local wrk_pid=$!
    while kill -0 "$wrk_pid" 2>/dev/null && [ "$(wc -l < "$WORK/stopped.txt")" -lt "$THREADS" ]; do sleep 0.05; done
    kill -INT "$wrk_pid" 2>/dev/null || true
    wait "$wrk_pid" || true
    kill "$SAMPLER_PID" 2>/dev/null && wait "$SAMPLER_PID" 2>/dev/null || true
    SAMPLER_PID=""
    sleep 1
    local after
    after="$(rss_kib "$MOCK_PID")"
    local rate p99 errors non2xx requests
    read -r rate p99 errors non2xx requests < <(parse_wrk < "$WORK/memory-wrk.txt")
    echo "memory: $requests requests at $MEMORY_CONNECTIONS connections ($(sed -n 's/.*requests in \([^,]*\),.*/\1/p' "$WORK/memory-wrk.txt" | head -1)), $rate req/s, p99 $p99 ms, socket errors $errors, non-2xx $non2xx"
    echo "mock VmRSS (MiB) over the run, $(wc -l < "$WORK/rss.txt") samples:"
    awk -v before="$before" -v after="$after" '
        { t[NR] = $1; v[NR] = $2; if (NR == 1 || $2 > hi) hi = $2; if (NR == 1 || $2 < lo) lo = $2 }
        END {
            n = NR
            printf "  before %.1f | start %.1f | 25%% %.1f | middle %.1f | 75%% %.1f | end %.1f | after %.1f\n",
                before / 1024, v[1] / 1024, v[int((n - 1) * 0.25) + 1] / 1024, v[int((n - 1) * 0.5) + 1] / 1024,
                v[int((n - 1) * 0.75) + 1] / 1024, v[n] / 1024, after / 1024
            printf "  min %.1f, max %.1f; end - start %+.1f MiB\n", lo / 1024, hi / 1024, (v[n] - v[1]) / 1024
        }' "$WORK/rss.txt"
}

# The report goes to the terminal and (unless --no-record) into BENCHMARKS.md's server section.
report() {
    echo "wrk $(wrk -v 2>&1 | sed -n 's/^wrk \([^ ]*\).*/\1/p' | head -1): $THREADS threads, ${DURATION}s per run, $ROUNDS rounds per connection count, servers alternating"
    echo "mock:  $MOCK_URL/hello.json  (courier mock, $(nproc) cores)"
    [ -n "$BASELINE" ] && echo "base:  $BASE_URL/hello.json  ($BASELINE)"
    echo "nginx: $NGINX_URL/hello.json  ($("$NGINX" -v 2>&1 | sed 's/.*\///'), worker_processes auto, access_log off)"
    echo
    printf '%-11s %-6s %-6s %12s %10s %8s %8s\n' connections round server req/s p99_ms errors non2xx
    for connections in $CONNECTION_SET; do
        # Warm-up, not reported: the first connections and the page cache.
        for server in "${SERVERS[@]}"; do
            wrk -t"$THREADS" -c"$connections" -d1s "$(url_of "$server")/hello.json" > /dev/null
        done
        throughput "$connections"
    done
    echo
    printf '%-11s %-6s %12s %10s %8s %8s\n' connections server "mean req/s" "worst p99" errors non2xx
    for connections in $CONNECTION_SET; do
        while read -r server rate p99 errors non2xx; do
            printf '%-11s %-6s %12s %10s %8s %8s\n' "$connections" "$server" "$rate" "$p99" "$errors" "$non2xx"
        done < "$WORK/summary-$connections.txt"
    done
    echo
    for connections in $CONNECTION_SET; do
        echo "mock/nginx at $connections connections: $(ratios "$connections" mock nginx)"
        [ -n "$BASELINE" ] && echo "mock/base  at $connections connections: $(ratios "$connections" mock base)"
    done
    echo "targets: mock/nginx >= 1.00 at 64 and 256 connections; 0 socket errors and 0 non-2xx at 1024"
    if [ "$REQUESTS" -gt 0 ]; then
        echo
        memory_run
    fi
}

REPORT="$WORK/report.txt"
report | tee "$REPORT"
[ "$RECORD" = 1 ] || exit 0
# Replace (or add) the "## Server" section of BENCHMARKS.md; `make bench` keeps it when it rewrites the rest.
python3 - "$ROOT/BENCHMARKS.md" "$REPORT" "scripts/wrk-bench.sh $ARGS" <<'PY'
import sys, time
path, report, command = sys.argv[1:4]
try:
    text = open(path).read()
except FileNotFoundError:
    text = "# Benchmarks\n"
head, _, previous = text.partition("\n## Server")
head = head.rstrip("\n")
# Hand-written notes under the run (from its first "### " heading on) are kept.
notes = previous.split("\n### ", 1)[1] if "\n### " in previous else ""
section = (f"\n\n## Server: `make bench-server` (scripts/wrk-bench.sh)\n\n`{command.strip()}`, run "
           f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}:\n\n```\n{open(report).read().rstrip()}\n```\n")
if notes:
    section += "\n### " + notes.rstrip("\n") + "\n"
open(path, "w").write(head + section)
PY
