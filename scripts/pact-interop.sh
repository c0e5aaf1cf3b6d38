#!/usr/bin/env bash
# Pact interoperability, both ways, with Pact's own command-line tools (pact-python-cli from PyPI,
# installed by scripts/install-deps.sh test into .build/contract-venv; they run without the network):
#   (a) Pact's verifier (`pact verifier`) verifies a pact file that Courier wrote: a consumer (curl here,
#       any language) exercises `courier mock --pact-out`, and the pact is verified against the social
#       backend served by another `courier mock --provider-states`;
#   (b) Courier's `verify --pact` verifies a pact file that Pact's own mock server wrote (driven by
#       scripts/pact-consumer.py) against the same backend;
# and a drifted provider (the backend with a WireMock stub that breaks one answer) fails both, for the
# planted reasons.
# Every server is ours: loopback, a free port, its own pid and log in a temporary folder.
# Usage: scripts/pact-interop.sh   (after swift build; env COURIER=path to the courier binary)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/contract-venv
pact="$PWD/$venv/bin/pact"
courier="${COURIER:-.build/debug/courier}"
[ -x "$pact" ] || { echo "pact-interop: no $pact; run scripts/install-deps.sh test" >&2; exit 1; }
[ -x "$courier" ] || { echo "pact-interop: no $courier; run swift build first" >&2; exit 1; }
export PACT_DO_NOT_TRACK=true  # Pact's tools otherwise try to send usage metrics
work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# Starts `courier mock` on a free port with the given options; sets PORT and PID.
start_mock() {
  local name="$1"; shift
  : >"$work/$name.out"  # there before the background job opens it, for the sed below
  "$courier" mock --port 0 "$@" >"$work/$name.out" 2>"$work/$name.err" &
  PID=$!
  pids+=("$PID")
  echo "$PID" >"$work/$name.pid"
  for _ in $(seq 1 100); do
    PORT="$(sed -n 's/^listening on http:\/\/127.0.0.1:\([0-9]*\)$/\1/p' "$work/$name.out")"
    [ -n "$PORT" ] && return 0
    kill -0 "$PID" 2>/dev/null || { cat "$work/$name.err" >&2; echo "pact-interop: $name did not start" >&2; exit 1; }
    sleep 0.1
  done
  echo "pact-interop: $name did not print its port" >&2
  exit 1
}

stop_mock() {  # stops one of ours with SIGTERM and waits for it
  kill -TERM "$1"
  wait "$1" || true
}

# A drifted provider: a stub answers one user with the wrong types (a number for the name, no email).
mkdir -p "$work/drift/mappings"
cat >"$work/drift/mappings/user.json" <<'JSON'
{"request": {"method": "GET", "urlPath": "/users/u-000001"},
 "response": {"status": 200, "headers": {"Content-Type": "application/json"},
              "jsonBody": {"id": "u-000001", "name": 42, "createdAt": "not a date"}}}
JSON

echo "pact-interop: $("$pact" verifier --version 2>&1 | head -1); $("$pact" mock --version 2>&1 | head -1)"

# (a) Courier writes the pact from a consumer's exchanges with the mock.
start_mock consumer --provider-states --pact-out "$work/pacts/courier-consumer-courier-social.json" \
  --consumer courier-consumer --provider courier-social
base="http://127.0.0.1:$PORT"
curl -fsS -o /dev/null -X POST -H 'Content-Type: application/json' \
  -d '{"action":"setup","state":"a user is signed in","params":{"token":"pact-token"}}' "$base/_pact/provider-states"
given='X-Pact-Provider-State: {"name":"a user is signed in","params":{"token":"pact-token"}}'
curl -fsS -o /dev/null -H "$given" -H 'Accept: application/json' "$base/tweets"
curl -fsS -o /dev/null -H "$given" -H 'Accept: application/json' "$base/users/u-000001"
curl -fsS -o /dev/null -H "$given" -H 'Accept: application/json' "$base/users/u-000001/tweets"
curl -fsS -o /dev/null -H "$given" -H 'Accept: application/json' -H 'Authorization: Bearer pact-token' "$base/me"
curl -sS -o /dev/null -H 'X-Pact-Description: no token' -H 'Accept: application/json' "$base/me"
stop_mock "$PID"
courier_pact="$work/pacts/courier-consumer-courier-social.json"
count="$("$venv/bin/python" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["interactions"]))' "$courier_pact")"
[ "$count" = 5 ] || { echo "pact-interop: Courier's pact has $count interactions, not 5" >&2; exit 1; }
echo "pact-interop: Courier wrote $count interactions"

start_mock provider --provider-states
provider_port=$PORT
echo "pact-interop: (a) pact verifier, Courier's pact, faithful provider"
"$pact" verifier --no-colour -f "$courier_pact" -h 127.0.0.1 -p "$provider_port" \
  -s "http://127.0.0.1:$provider_port/_pact/provider-states" >"$work/a-faithful.txt" 2>&1 ||
  { cat "$work/a-faithful.txt" >&2; echo "pact-interop: pact verifier failed on the faithful provider" >&2; exit 1; }
grep -E "^ *(There were|.*OK|.*FAILED)" "$work/a-faithful.txt" | head -20 || true

start_mock drifted --provider-states --mappings "$work/drift"
drifted_port=$PORT
echo "pact-interop: (a) pact verifier, Courier's pact, drifted provider (must fail)"
if "$pact" verifier --no-colour -f "$courier_pact" -h 127.0.0.1 -p "$drifted_port" \
  -s "http://127.0.0.1:$drifted_port/_pact/provider-states" >"$work/a-drifted.txt" 2>&1; then
  cat "$work/a-drifted.txt" >&2
  echo "pact-interop: pact verifier passed a drifted provider" >&2
  exit 1
fi
sed -n '/^Failures:/,$p' "$work/a-drifted.txt"
# It must fail for the planted reasons, not for another.
for planted in '$.name -> Expected 42' 'missing the following keys: email' "\$.createdAt -> Expected 'not a date'"; do
  grep -qF -- "$planted" "$work/a-drifted.txt" ||
    { echo "pact-interop: pact verifier did not report the planted drift '$planted'" >&2; exit 1; }
done
grep -q '^There were 1 pact failures' "$work/a-drifted.txt" ||
  { echo "pact-interop: pact verifier failed more than the drifted interaction" >&2; exit 1; }


# (b) Pact's mock server writes the pact; Courier verifies it.
"$venv/bin/python" scripts/pact-consumer.py --pact "$pact" --out "$work/pact-mock" --work "$work"
mock_pact="$(ls "$work"/pact-mock/*.json | head -1)"
echo "pact-interop: (b) courier verify --pact, Pact's pact, faithful provider"
"$courier" verify --pact "$mock_pact" --base-url "http://127.0.0.1:$provider_port" \
  --provider-states-url "http://127.0.0.1:$provider_port/_pact/provider-states" --junit "$work/b-faithful.xml"
echo "pact-interop: (b) courier verify --pact, Pact's pact, drifted provider (must fail)"
if "$courier" verify --pact "$mock_pact" --base-url "http://127.0.0.1:$drifted_port" \
  --provider-states-url "http://127.0.0.1:$drifted_port/_pact/provider-states" --junit "$work/b-drifted.xml" \
  >"$work/b-drifted.txt"; then
  cat "$work/b-drifted.txt" >&2
  echo "pact-interop: courier verify passed a drifted provider" >&2
  exit 1
fi
cat "$work/b-drifted.txt"
for planted in 'BodyMismatch $.name' 'BodyMismatch $.createdAt' '2 interactions, 1 failed'; do
  grep -qF -- "$planted" "$work/b-drifted.txt" ||
    { echo "pact-interop: courier verify did not report '$planted'" >&2; exit 1; }
done
grep -q 'failures="1"' "$work/b-drifted.xml" ||
  { echo "pact-interop: the JUnit file of the drifted run does not hold its one failure" >&2; exit 1; }
echo "pact-interop: both ways pass against the faithful provider and fail against the drifted one"
