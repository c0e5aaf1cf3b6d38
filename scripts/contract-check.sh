#!/usr/bin/env bash
# Checks the mock server's social backend against the contract with independent tools:
#   1. `courier openapi` writes the contract as OpenAPI 3.1; openapi-spec-validator must accept it.
#   2. `courier mock --seed-data 20` serves it; `courier verify --allow-unsafe` (every sample and the
#      cases made from the declaration) must find no violation, and schemathesis (every check, bounded
#      examples) no failure, both signed in as a seeded user so authenticated operations are exercised.
# Usage: scripts/contract-check.sh   (env: COURIER=path/to/courier, MAX_EXAMPLES=20, SEED=1, VENV=dir)
set -euo pipefail

cd "$(dirname "$0")/.."
MAX_EXAMPLES="${MAX_EXAMPLES:-20}"
SEED="${SEED:-1}"
VENV="$(realpath -m "${VENV:-.build/contract-venv}")"
WORK="$(mktemp -d)"
MOCK_PID=""

cleanup() {
    if [[ -n "$MOCK_PID" ]]; then kill "$MOCK_PID" 2>/dev/null || true; wait "$MOCK_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

echo "== tools: openapi-spec-validator, schemathesis (PyPI) in $VENV"
if [[ ! -x "$VENV/bin/python" ]]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check openapi-spec-validator schemathesis
"$VENV/bin/python" -m pip show schemathesis openapi-spec-validator | grep -E '^(Name|Version)'

if [[ -z "${COURIER:-}" ]]; then
    echo "== building courier"
    swift build --product courier >/dev/null
    COURIER="$(pwd)/.build/debug/courier"
fi

echo "== courier openapi → openapi-spec-validator"
"$COURIER" openapi > "$WORK/openapi.json"
"$VENV/bin/python" -m openapi_spec_validator "$WORK/openapi.json"

echo "== courier mock --port 0 --seed-data 20"
# The log exists before the mock starts: the loop below reads it at once, and under `set -e` a missing
# file (the background job not yet started on a loaded machine) would end the script.
: > "$WORK/mock.log"
"$COURIER" mock --port 0 --seed-data 20 > "$WORK/mock.log" 2>&1 &
MOCK_PID=$!
BASE_URL=""
for _ in $(seq 1 600); do  # up to 60 s: a debug build starts slowly on a loaded machine
    BASE_URL="$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$WORK/mock.log" | head -n 1)"
    [[ -n "$BASE_URL" ]] && break
    kill -0 "$MOCK_PID" 2>/dev/null || { cat "$WORK/mock.log"; echo "courier mock exited" >&2; exit 1; }
    sleep 0.1
done
[[ -n "$BASE_URL" ]] || { cat "$WORK/mock.log"; echo "courier mock did not report its port" >&2; exit 1; }
echo "mock at $BASE_URL"

TOKEN="$(curl -fsS -X POST -H 'Content-Type: application/json' \
    -d '{"email":"user1@example.com","password":"password1"}' "$BASE_URL/auth/login" |
    "$VENV/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["token"])')"

echo "== courier verify --allow-unsafe: the social backend against its own declaration"
if ! "$COURIER" verify --base-url "$BASE_URL" --token "$TOKEN" --allow-unsafe --junit "$WORK/verify.xml" \
    > "$WORK/verify.log" 2>&1; then
    cat "$WORK/verify.log"; echo "courier verify found drift" >&2; exit 1
fi
tail -n 1 "$WORK/verify.log"

echo "== schemathesis run --checks all --max-examples $MAX_EXAMPLES --seed $SEED"
# Run from the scratch folder: schemathesis keeps a .schemathesis/ cache in the current directory.
(cd "$WORK" && "$VENV/bin/schemathesis" run "$WORK/openapi.json" --url "$BASE_URL" --checks all \
    --max-examples "$MAX_EXAMPLES" --seed "$SEED" -H "Authorization: Bearer $TOKEN" --no-color)
echo "== contract check passed"
