#!/usr/bin/env bash
# Checks `courier mock --openapi` against each fixture document with independent tools:
#   1. schemathesis runs its checks against the mock (the mock must find no failure);
#   2. scripts/openapi-mock-answers.py sends valid requests for every operation and openapi-core
#      validates every answer against the document.
# Each document gets its own mock on a free loopback port (own log and pid, stopped on exit).
# The documents in Tests/Fixtures/OpenAPI/stateful/ declare how they refuse bad requests: they are served
# with `--stateful` and `--credentials` (the values the script sends), and schemathesis runs all its
# checks, the stateful phase's among them, with no exception.
# Usage: scripts/openapi-mock-check.sh [DOCUMENT…]   (env: COURIER=path/to/courier, MAX_EXAMPLES=20,
#        SEED=1, VENV=dir; default documents: Tests/Fixtures/OpenAPI/*.yaml and *.json, then stateful/*.yaml;
#        STATEFUL=1 serves the documents given as arguments the stateful way)
set -euo pipefail

cd "$(dirname "$0")/.."
MAX_EXAMPLES="${MAX_EXAMPLES:-20}"
SEED="${SEED:-1}"
VENV="$(realpath -m "${VENV:-.build/contract-venv}")"
# Scratch under .build, not /tmp: the logs and the mock's pid live there for the whole run.
mkdir -p .build
WORK="$(realpath "$(mktemp -d .build/openapi-mock-check.XXXXXX)")"
MOCK_PID=""
# Which checks apply to a mock, and each document's exceptions with their reasons.
CONFIG="$(pwd)/Tests/Fixtures/OpenAPI/schemathesis.toml"
# The stateful documents' settings: every check on.
STATEFUL_CONFIG="$(pwd)/Tests/Fixtures/OpenAPI/stateful/schemathesis.toml"

stop_mock() {
    if [[ -n "$MOCK_PID" ]]; then kill "$MOCK_PID" 2>/dev/null || true; wait "$MOCK_PID" 2>/dev/null || true; fi
    MOCK_PID=""
}
cleanup() {
    stop_mock
    rm -rf "$WORK"
}
trap cleanup EXIT

if [[ ! -x "$VENV/bin/python" ]] || ! "$VENV/bin/python" -c 'import schemathesis; from openapi_core import OpenAPI' 2>/dev/null; then
    scripts/install-deps.sh test
fi
"$VENV/bin/python" -m pip show schemathesis openapi-core | grep -E '^(Name|Version)'

if [[ -z "${COURIER:-}" ]]; then
    echo "== building courier"
    swift build --product courier >/dev/null
    COURIER="$(pwd)/.build/debug/courier"
fi

if [[ $# -gt 0 ]]; then
    if [[ "${STATEFUL:-0}" == 1 ]]; then documents=(); stateful_documents=("$@"); else
        documents=("$@"); stateful_documents=(); fi
else
    shopt -s nullglob
    documents=(Tests/Fixtures/OpenAPI/*.yaml Tests/Fixtures/OpenAPI/*.json)
    stateful_documents=(Tests/Fixtures/OpenAPI/stateful/*.yaml)
fi

failed=0
# check DOCUMENT stateful|stateless: serves the document, runs schemathesis and openapi-core against it.
check() {
    local document="$1" mode="$2"
    local name path config
    name="$(basename "$document")"
    path="$(realpath "$document")"
    echo "== $name ($mode): $(wc -c < "$document") bytes"
    # The credentials every security scheme of the document accepts, as headers schemathesis sends
    # ("H" lines) and as what the stateful mock is configured to take ("C" lines).
    local lines=() auth=() credentials=() line
    mapfile -t lines < <("$VENV/bin/python" - "$document" <<'EOF'
import json, sys, yaml
text = open(sys.argv[1]).read()
document = json.loads(text) if text.lstrip().startswith("{") else yaml.safe_load(text)
headers, credentials = {}, []
for scheme in ((document.get("components") or {}).get("securitySchemes") or {}).values():
    if scheme.get("type") == "http" and scheme.get("scheme", "").lower() == "basic":
        headers.setdefault("Authorization", "Basic dXNlcjpwYXNz")
        credentials.append("basic=user:pass")
    elif scheme.get("type") in ("http", "oauth2", "openIdConnect"):
        headers.setdefault("Authorization", "Bearer mock-token")
        credentials.append("bearer=mock-token")
    elif scheme.get("type") == "apiKey" and scheme.get("in") == "header":
        headers[scheme["name"]] = "mock-key"
        credentials.append(f"apiKey={scheme['name']}:mock-key")
for name, value in headers.items():
    print(f"H{name}: {value}")
for credential in dict.fromkeys(credentials):
    print(f"C{credential}")
EOF
)
    for line in "${lines[@]}"; do
        case "$line" in
            H*) auth+=(-H "${line#H}") ;;
            C*) credentials+=(--credentials "${line#C}") ;;
        esac
    done
    local options=() checks=()
    if [[ "$mode" == stateful ]]; then
        options=(--stateful "${credentials[@]}")
        checks=(--checks all --phases examples,coverage,fuzzing,stateful)
        config="$STATEFUL_CONFIG"
    else
        config="$CONFIG"
    fi
    # The log exists before the mock starts: the loop below reads it at once, and under `set -e` a missing
    # file (the background job not yet started on a loaded machine) would end the script.
    : > "$WORK/$name.log"
    "$COURIER" mock --port 0 --openapi "$document" --seed "$SEED" "${options[@]}" > "$WORK/$name.log" 2>&1 &
    MOCK_PID=$!
    BASE_URL=""
    for _ in $(seq 1 600); do  # up to 60 s: a debug build starts slowly on a loaded machine
        BASE_URL="$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$WORK/$name.log" | head -n 1)"
        [[ -n "$BASE_URL" ]] && break
        kill -0 "$MOCK_PID" 2>/dev/null || break
        sleep 0.1
    done
    if [[ -z "$BASE_URL" ]]; then
        cat "$WORK/$name.log"
        echo "$name: courier mock did not start" >&2
        failed=1
        stop_mock
        return
    fi
    echo "-- schemathesis (mock at $BASE_URL ${options[*]})"
    # From the scratch folder: schemathesis keeps a .schemathesis/ cache in the current directory.
    if ! (cd "$WORK" && "$VENV/bin/schemathesis" --config-file "$config" run "$path" --url "$BASE_URL" \
        --max-examples "$MAX_EXAMPLES" --seed "$SEED" --no-color "${auth[@]}" "${checks[@]}" \
        --request-timeout 10 > "$WORK/$name.st" 2>&1); then
        failed=1
        tail -n 150 "$WORK/$name.st"
    else
        # The summary: operations tested, phases, and the test cases generated and passed.
        awk '/^API Operations:/ { block = "" } { block = block $0 "\n" } END { printf "%s", block }' "$WORK/$name.st"
    fi
    echo "-- openapi-core"
    "$VENV/bin/python" scripts/openapi-mock-answers.py "$document" "$BASE_URL" --examples "$MAX_EXAMPLES" \
        --seed "$SEED" || failed=1
    stop_mock
}

for document in "${documents[@]}"; do check "$document" stateless; done
for document in "${stateful_documents[@]}"; do check "$document" stateful; done
if [[ $failed -ne 0 ]]; then
    echo "== openapi mock check FAILED" >&2
    exit 1
fi
echo "== openapi mock check passed: ${#documents[@]} documents, ${#stateful_documents[@]} stateful"
