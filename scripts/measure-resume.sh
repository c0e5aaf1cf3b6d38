#!/bin/sh
# Measures the peak resident memory of `courier send GET URL --output FILE` while it resumes a
# download that the mock server cuts at random offsets, once per transport. The server is a
# separate process (`courier bench cut-server`), so the figure is the client's alone.
# Usage, from the package root after `swift build`:
#   sh scripts/measure-resume.sh [path/to/courier] [size-in-MiB] [cuts]
# Prints, per transport, "Maximum resident set size" from /usr/bin/time -v, the attempts the
# client made, and whether the SHA-256 of the downloaded file equals the source's.
set -eu
courier="${1:-.build/debug/courier}"
mib="${2:-1024}"
cuts="${3:-5}"
[ -x "$courier" ] || { echo "no courier binary at $courier (run swift build)"; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is not installed (apt-get install time)"; exit 1; }

dir=$(mktemp -d /tmp/courier-resume-XXXXXX)
server_pid=""
trap '[ -n "$server_pid" ] && kill $server_pid 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$dir"' EXIT
head -c "$((mib * 1024 * 1024))" /dev/urandom > "$dir/source.bin"
source_sha=$(sha256sum "$dir/source.bin" | cut -d' ' -f1)
printf '{ "retry": { "maxAttempts": %d, "baseDelay": 0.05, "maxDelay": 0.2 }, "timeouts": { "idle": 60 } }\n' \
    "$((cuts + 2))" > "$dir/courier.json"

status=0
for transport in curl urlsession; do
    "$courier" bench cut-server --file "$dir/source.bin" --cuts "$cuts" > "$dir/server-$transport.out" 2>&1 &
    server_pid=$!
    i=0
    until grep -q '^listening on http://.*:[0-9][0-9]*$' "$dir/server-$transport.out" 2>/dev/null; do
        i=$((i + 1)); [ $i -lt 200 ] || { cat "$dir/server-$transport.out"; exit 1; }; sleep 0.05
    done
    url="$(sed -n 's/^listening on //p' "$dir/server-$transport.out")/file"
    rm -f "$dir/down.bin"
    /usr/bin/time -v "$courier" send GET "$url" --output "$dir/down.bin" --transport "$transport" \
        --config "$dir/courier.json" --verbose --fail > /dev/null 2> "$dir/client.err" || {
        echo "$transport: courier send failed"; tail -5 "$dir/client.err"; status=1; }
    kill $server_pid; wait $server_pid 2>/dev/null || true; server_pid=""
    attempts=$(($(grep -c '^curl ' "$dir/client.err" || true)))
    resumed=$(grep -c "Range: bytes=" "$dir/client.err" || true)
    received_sha=$(sha256sum "$dir/down.bin" 2>/dev/null | cut -d' ' -f1 || echo none)
    verdict=$([ "$received_sha" = "$source_sha" ] && echo "sha256 ok" || echo "sha256 MISMATCH")
    [ "$received_sha" = "$source_sha" ] || status=1
    echo "$transport ${mib} MiB, $cuts cuts: $(grep 'Maximum resident' "$dir/client.err" | sed 's/^[[:space:]]*//'), $(grep 'Elapsed' "$dir/client.err" | sed 's/^[[:space:]]*//'), $attempts attempts ($resumed resumed), $verdict"
done
exit $status
