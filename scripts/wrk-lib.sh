# What scripts/wrk-bench.sh, wrk-mixed.sh and wrk-count.sh share; sourced by them, not run.

# Sets COURIER to the release build of courier under $ROOT, building it first when $BUILD is 1, and checks
# that wrk and the --baseline build ($BASELINE, if any) are there.
find_courier() {
    command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
    if [ "$BUILD" = 1 ]; then
        (cd "$ROOT" && swift build -c release --product courier >&2)
    fi
    COURIER="$(cd "$ROOT" && swift build -c release --show-bin-path)/courier"
    [ -x "$COURIER" ] || { echo "no release build of courier at $COURIER" >&2; exit 1; }
    if [ -n "$BASELINE" ]; then
        [ -x "$BASELINE" ] || { echo "--baseline $BASELINE is not an executable" >&2; exit 1; }
    fi
}

# The figures of one wrk output on standard input: "rate p99_ms errors non2xx requests" (0 for what it
# does not print, such as the p99 of a run without --latency).
parse_wrk() {
    awk '
        /Requests\/sec:/ { rate = $2 }
        /^ +99%/ { p = $2
                   if (p ~ /us$/) { sub(/us$/, "", p); p = p / 1000 }
                   else if (p ~ /ms$/) { sub(/ms$/, "", p) }
                   else if (p ~ /s$/) { sub(/s$/, "", p); p = p * 1000 }
                   p99 = p }
        /requests in/ { requests = $1 }
        /Socket errors:/ { gsub(/,/, ""); errors = $4 + $6 + $8 + $10 }
        /Non-2xx or 3xx responses:/ { non2xx = $5 }
        END { printf "%s %s %d %d %d\n", rate + 0, p99 + 0, errors + 0, non2xx + 0, requests + 0 }
    '
}

# Writes $WORK/stop.lua, with which each wrk thread stops after $1 responses and says so in
# $WORK/stopped.txt (emptied here): wrk's main thread only wakes at the end of -d or on SIGINT, so the
# caller sends SIGINT once every thread has said so.
write_stop_script() {
    : > "$WORK/stopped.txt"
    cat > "$WORK/stop.lua" <<LUA
local count = 0
function response()
    count = count + 1
    if count == $1 then
        local file = io.open("$WORK/stopped.txt", "a")
        file:write("stopped\\n")
        file:close()
        wrk.thread:stop()
    end
end
LUA
}
