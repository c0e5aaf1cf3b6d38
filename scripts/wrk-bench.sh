#!/usr/bin/env bash
# wrk benchmark: Courier's mock server vs nginx, serving the same small JSON file on loopback.
#
# Usage: scripts/wrk-bench.sh [--duration SECONDS] [--rounds N] [--connections C] [--threads T] [--no-build]
# Runs wrk against each server alternately (mock, nginx, mock, nginx, ...) in the same run and prints the
# request rates, p99 latencies, errors and the mock/nginx ratio. Not a test: nothing here asserts.
set -euo pipefail

DURATION=10
ROUNDS=2
CONNECTIONS=256
THREADS=2
BUILD=1
while [ $# -gt 0 ]; do
    case "$1" in
        --duration) DURATION="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        --connections) CONNECTIONS="$2"; shift 2 ;;
        --threads) THREADS="$2"; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
[ -x "$NGINX" ] || { echo "nginx is not installed (apt-get install nginx)" >&2; exit 1; }

if [ "$BUILD" = 1 ]; then
    (cd "$ROOT" && swift build -c release --product courier >&2)
fi
COURIER="$(cd "$ROOT" && swift build -c release --show-bin-path)/courier"
[ -x "$COURIER" ] || { echo "no release build of courier at $COURIER" >&2; exit 1; }

WORK="$(mktemp -d /tmp/courier-wrk.XXXXXX)"
chmod 755 "$WORK"  # nginx workers may run as another user
MOCK_PID=""
NGINX_PID=""
cleanup() {
    [ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null && wait "$MOCK_PID" 2>/dev/null || true
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

# Courier's mock server: stubs only (no social backend), port 0, first line names the real port.
"$COURIER" mock --port 0 --mappings "$WORK/mappings" --no-backend > "$WORK/mock.log" 2>&1 &
MOCK_PID=$!
for _ in $(seq 1 100); do
    grep -q "listening on" "$WORK/mock.log" 2>/dev/null && break
    sleep 0.1
done
MOCK_URL="$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$WORK/mock.log" | head -1)"
[ -n "$MOCK_URL" ] || { echo "courier mock did not start:" >&2; cat "$WORK/mock.log" >&2; exit 1; }

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

# Both must serve the same bytes before anything is measured.
curl -sf "$MOCK_URL/hello.json" -o "$WORK/mock.body" || { echo "courier mock does not serve the stub" >&2; exit 1; }
curl -sf "$NGINX_URL/hello.json" -o "$WORK/nginx.body" || { echo "nginx does not serve the file:" >&2; cat "$WORK/nginx-error.log" >&2; exit 1; }
cmp -s "$WORK/mock.body" "$WORK/nginx.body" || { echo "the servers do not serve the same bytes" >&2; exit 1; }

# One wrk run; prints "rate p99_ms errors non2xx".
measure() {
    local out
    out="$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "$1/hello.json")"
    echo "$out" > "$WORK/last-wrk.txt"
    awk '
        /Requests\/sec:/ { rate = $2 }
        /^ +99%/ { p = $2
                   if (p ~ /us$/) { sub(/us$/, "", p); p = p / 1000 }
                   else if (p ~ /ms$/) { sub(/ms$/, "", p) }
                   else if (p ~ /s$/) { sub(/s$/, "", p); p = p * 1000 }
                   p99 = p }
        /Socket errors:/ { gsub(/,/, ""); errors = $4 + $6 + $8 + $10 }
        /Non-2xx or 3xx responses:/ { non2xx = $5 }
        END { printf "%s %s %d %d\n", rate, p99, errors + 0, non2xx + 0 }
    ' <<< "$out"
}

# The report goes to the terminal and into BENCHMARKS.md's server section.
report() {
echo "wrk: $THREADS threads, $CONNECTIONS connections, ${DURATION}s per run, $ROUNDS rounds, alternating"
echo "mock:  $MOCK_URL/hello.json  (courier mock, $(nproc) cores)"
echo "nginx: $NGINX_URL/hello.json  ($("$NGINX" -v 2>&1 | sed 's/.*\///'))"
printf '%-6s %-6s %12s %10s %8s %8s\n' round server req/s p99_ms errors non2xx
MOCK_RATES=()
NGINX_RATES=()
MOCK_P99=()
NGINX_P99=()
TOTAL_ERRORS=0
for round in $(seq 1 "$ROUNDS"); do
    for server in mock nginx; do
        if [ "$server" = mock ]; then url="$MOCK_URL"; else url="$NGINX_URL"; fi
        read -r rate p99 errors non2xx <<< "$(measure "$url")"
        printf '%-6s %-6s %12s %10s %8s %8s\n' "$round" "$server" "$rate" "$p99" "$errors" "$non2xx"
        TOTAL_ERRORS=$((TOTAL_ERRORS + errors + non2xx))
        if [ "$server" = mock ]; then MOCK_RATES+=("$rate"); MOCK_P99+=("$p99")
        else NGINX_RATES+=("$rate"); NGINX_P99+=("$p99"); fi
    done
done

mean() { printf '%s\n' "$@" | awk '{ s += $1 } END { printf "%.0f", s / NR }'; }
worst() { printf '%s\n' "$@" | sort -g | tail -1; }
MOCK_MEAN="$(mean "${MOCK_RATES[@]}")"
NGINX_MEAN="$(mean "${NGINX_RATES[@]}")"
echo
echo "mock  mean: $MOCK_MEAN req/s, worst p99 $(worst "${MOCK_P99[@]}") ms"
echo "nginx mean: $NGINX_MEAN req/s, worst p99 $(worst "${NGINX_P99[@]}") ms"
awk -v m="$MOCK_MEAN" -v n="$NGINX_MEAN" 'BEGIN { printf "ratio mock/nginx: %.2f (target >= 0.50)\n", m / n }'
echo "errors (socket errors + non-2xx, both servers): $TOTAL_ERRORS"
}

REPORT="$(mktemp)"
report | tee "$REPORT"
# Replace (or add) the "## Server" section of BENCHMARKS.md; `make bench` keeps it when it rewrites the rest.
python3 - "$ROOT/BENCHMARKS.md" "$REPORT" "scripts/wrk-bench.sh $*" <<'PY'
import sys, time
path, report, command = sys.argv[1:4]
try:
    text = open(path).read()
except FileNotFoundError:
    text = "# Benchmarks\n"
head = text.split("\n## Server", 1)[0].rstrip("\n")
section = (f"\n\n## Server: `make bench-server` (scripts/wrk-bench.sh)\n\n`{command.strip()}`, run "
           f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}:\n\n```\n{open(report).read().rstrip()}\n```\n")
open(path, "w").write(head + section)
PY
rm -f "$REPORT"
