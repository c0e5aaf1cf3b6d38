#!/usr/bin/env bash
# wrk benchmark of the mock server's request handling under a mixed load: matched stubs with JSON body
# patterns and response templates, with and without a share of unmatched requests, each of which makes
# the server compute near misses against every stub.
#
# Usage: scripts/wrk-mixed.sh [--stubs N] [--duration SECONDS] [--rounds N] [--connections C]
#                             [--unmatched-connections U] [--baseline COURIER] [--no-build] [--no-record]
#
# The mock serves N stubs (1,000 by default), each `POST /orders/<i>` matching its body with
# `matchesJsonPath` and a partial `equalToJson`, and answering a template that reads the body
# (`jsonPath`) and the path. Two workloads, each run for DURATION seconds:
# - matched: C connections (64) posting to random stubs, every answer a 200;
# - mixed: the same, while a second wrk posts to paths no stub matches on U connections (16), so that
#   every one of its requests is a 404 with near misses computed against all N stubs.
# Only the matched requests' rate and p99 are reported for both: how much the unmatched share costs
# the requests that match. --baseline COURIER serves a second mock from another build in the same
# rounds, alternating, for a before/after comparison. The report replaces BENCHMARKS.md's
# "## Server, mixed workload" section unless --no-record. Not a test: it asserts only that every matched
# request got a 200 and every unmatched one a 404, so that a broken build is not measured.
set -euo pipefail

STUBS=1000
DURATION=10
ROUNDS=3
CONNECTIONS=64
UNMATCHED_CONNECTIONS=16
THREADS=2
BASELINE=""
BUILD=1
RECORD=1
ARGS="$*"
while [ $# -gt 0 ]; do
    case "$1" in
        --stubs) STUBS="$2"; shift 2 ;;
        --duration) DURATION="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        --connections) CONNECTIONS="$2"; shift 2 ;;
        --unmatched-connections) UNMATCHED_CONNECTIONS="$2"; shift 2 ;;
        --baseline) BASELINE="$2"; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --no-record) RECORD=0; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/wrk-lib.sh
source "$ROOT/scripts/wrk-lib.sh"
find_courier

WORK="$(mktemp -d /tmp/courier-wrk-mixed.XXXXXX)"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

# The stubs, in one file.
mkdir -p "$WORK/mappings/mappings"
python3 - "$STUBS" "$WORK/mappings/mappings/orders.json" <<'PY'
import json, sys
count, path = int(sys.argv[1]), sys.argv[2]
mappings = [{
    "request": {
        "method": "POST", "url": f"/orders/{i}",
        "bodyPatterns": [
            {"matchesJsonPath": "$.customer"},
            {"equalToJson": {"kind": f"order-{i % 10}"}, "ignoreExtraElements": True},
        ],
    },
    "response": {
        "status": 200, "headers": {"Content-Type": "application/json"},
        "body": '{"order":"{{request.path}}","id":{{jsonPath request.body \'$.id\'}},'
                '"customer":"{{jsonPath request.body \'$.customer\'}}"}',
        "transformers": ["response-template"],
    },
} for i in range(count)]
json.dump({"mappings": mappings}, open(path, "w"))
PY

# The requests: matched ones post to a random stub with the body it asks for; unmatched ones to a path
# no stub has, with a body of the same shape.
cat > "$WORK/matched.lua" <<LUA
math.randomseed(os.time())
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local statuses = {}
request = function()
    local i = math.random(0, $STUBS - 1)
    local body = string.format('{"id":%d,"customer":"c%d","kind":"order-%d","note":"x"}', i, i, i % 10)
    return wrk.format(nil, "/orders/" .. i, nil, body)
end
response = function(status) if status ~= 200 then statuses[status] = (statuses[status] or 0) + 1 end end
LUA
cat > "$WORK/unmatched.lua" <<LUA
math.randomseed(os.time() + 1)
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
    local i = math.random(0, $STUBS - 1)
    local body = string.format('{"id":%d,"customer":"c%d","kind":"refund-%d"}', i, i, i % 10)
    return wrk.format(nil, "/refunds/" .. i, nil, body)
end
LUA

start_mock() {
    local binary="$1" log="$2"
    "$binary" mock --port 0 --mappings "$WORK/mappings" --no-backend > "$log" 2>&1 &
    STARTED_PID=$!
    PIDS+=("$STARTED_PID")
    for _ in $(seq 1 300); do
        grep -q "listening on" "$log" 2>/dev/null && break
        sleep 0.1
    done
    STARTED_URL="$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$log" | head -1)"
    [ -n "$STARTED_URL" ] || { echo "courier mock ($binary) did not start:" >&2; cat "$log" >&2; exit 1; }
}
declare -A URLS
start_mock "$COURIER" "$WORK/after.log"
URLS[after]="$STARTED_URL"
SERVERS=(after)
if [ -n "$BASELINE" ]; then
    start_mock "$BASELINE" "$WORK/before.log"
    URLS[before]="$STARTED_URL"
    SERVERS=(before after)
fi

# Each server answers a matched request with its template and an unmatched one with a 404.
for server in "${SERVERS[@]}"; do
    url="${URLS[$server]}"
    answer="$(curl -sf -X POST -H 'Content-Type: application/json' \
        -d '{"id":7,"customer":"c7","kind":"order-7"}' "$url/orders/7")" \
        || { echo "$server does not match /orders/7" >&2; exit 1; }
    [ "$answer" = '{"order":"/orders/7","id":7,"customer":"c7"}' ] \
        || { echo "$server answered /orders/7 with $answer" >&2; exit 1; }
    status="$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
        -d '{"id":7,"customer":"c7","kind":"refund-7"}' "$url/refunds/7")"
    [ "$status" = 404 ] || { echo "$server answered an unmatched request with $status" >&2; exit 1; }
done

# One run against $1 of workload $2 (matched or mixed); prints the matched requests' figures and,
# for mixed, the unmatched ones' rate.
run() {
    local url="$1" workload="$2" unmatched_pid=""
    if [ "$workload" = mixed ]; then
        wrk -t1 -c"$UNMATCHED_CONNECTIONS" -d"${DURATION}s" -s "$WORK/unmatched.lua" "$url" > "$WORK/unmatched.txt" &
        unmatched_pid=$!
    fi
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/matched.lua" "$url" > "$WORK/matched.txt"
    local rate p99 errors non2xx requests
    read -r rate p99 errors non2xx requests < <(parse_wrk < "$WORK/matched.txt")
    local unmatched_rate="-"
    if [ -n "$unmatched_pid" ]; then
        wait "$unmatched_pid"
        local u_rate u_p99 u_errors u_non2xx u_requests
        read -r u_rate u_p99 u_errors u_non2xx u_requests < <(parse_wrk < "$WORK/unmatched.txt")
        # Every unmatched request must have been answered 404 (a non-2xx), or the load was not what it says.
        [ "$u_non2xx" = "$u_requests" ] \
            || { echo "unmatched: $u_non2xx of $u_requests answered with a non-2xx" >&2; exit 1; }
        unmatched_rate="$u_rate"
        errors=$((errors + u_errors))
    fi
    [ "$non2xx" = 0 ] || { echo "matched: $non2xx of $requests answered with a non-2xx" >&2; exit 1; }
    echo "$rate $p99 $errors $unmatched_rate"
}

mean() { printf '%s\n' "$@" | awk '{ s += $1 } END { printf "%.0f", s / NR }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) printf "%.2f", v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

report() {
    echo "wrk, $STUBS stubs (matchesJsonPath + partial equalToJson, templated answers), ${DURATION}s per run,"
    echo "$ROUNDS rounds, servers alternating; matched: $CONNECTIONS connections ($THREADS threads); mixed: the same"
    echo "plus $UNMATCHED_CONNECTIONS connections of unmatched requests (404, near misses against every stub); $(nproc) cores"
    for server in "${SERVERS[@]}"; do echo "$server: ${URLS[$server]} ($([ "$server" = before ] && echo "$BASELINE" || echo "$COURIER"))"; done
    echo
    printf '%-8s %-6s %-7s %14s %10s %8s %16s\n' workload round server "matched req/s" "p99_ms" errors "unmatched req/s"
    declare -A rates p99s
    for server in "${SERVERS[@]}"; do
        wrk -t1 -c8 -d1s -s "$WORK/matched.lua" "${URLS[$server]}" > /dev/null  # warm-up
    done
    local round workload server order figures rate p99 errors unmatched
    for round in $(seq 1 "$ROUNDS"); do
        for workload in matched mixed; do
            if [ $((round % 2)) = 1 ]; then order=("${SERVERS[@]}"); else order=(); for ((i = ${#SERVERS[@]} - 1; i >= 0; i--)); do order+=("${SERVERS[i]}"); done; fi
            for server in "${order[@]}"; do
                figures="$(run "${URLS[$server]}" "$workload")"  # fails the script if the run does
                read -r rate p99 errors unmatched <<< "$figures"
                printf '%-8s %-6s %-7s %14s %10s %8s %16s\n' "$workload" "$round" "$server" "$rate" "$p99" "$errors" "$unmatched"
                rates[$workload-$server]+="$rate "
                p99s[$workload-$server]+="$p99 "
            done
        done
    done
    echo
    printf '%-8s %-7s %20s %16s\n' workload server "median matched req/s" "median p99 ms"
    for workload in matched mixed; do
        for server in "${SERVERS[@]}"; do
            # shellcheck disable=SC2086
            printf '%-8s %-7s %20s %16s\n' "$workload" "$server" "$(median ${rates[$workload-$server]})" "$(median ${p99s[$workload-$server]})"
        done
    done
    if [ -n "$BASELINE" ]; then
        echo
        for workload in matched mixed; do
            # shellcheck disable=SC2086
            echo "after/before, $workload: matched req/s $(awk -v a="$(median ${rates[$workload-after]})" -v b="$(median ${rates[$workload-before]})" 'BEGIN { printf "%.2f", a / b }')×, p99 $(awk -v a="$(median ${p99s[$workload-after]})" -v b="$(median ${p99s[$workload-before]})" 'BEGIN { printf "%.2f", a / b }')×"
        done
    fi
}

REPORT="$WORK/report.txt"
report | tee "$REPORT"
[ "$RECORD" = 1 ] || exit 0
# Replace (or add) the "## Server, mixed workload" section of BENCHMARKS.md, keeping notes under "### ".
python3 - "$ROOT/BENCHMARKS.md" "$REPORT" "scripts/wrk-mixed.sh $ARGS" <<'PY'
import sys, time
path, report, command = sys.argv[1:4]
try:
    text = open(path).read()
except FileNotFoundError:
    text = "# Benchmarks\n"
title = "\n## Server, mixed workload"
head, found, rest = text.partition(title)
after = ""
if found:
    body, sep, after = rest.partition("\n## ")
    after = sep + after if sep else ""
section = (f"{title}: `scripts/wrk-mixed.sh`\n\n`{command.strip()}`, run "
           f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}:\n\n```\n{open(report).read().rstrip()}\n```\n")
open(path, "w").write(head.rstrip("\n") + "\n" + section + after)
PY
