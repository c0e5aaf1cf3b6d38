#!/usr/bin/env bash
# Builds the release binaries and runs the benchmark harness. Writes BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null 2>&1 || scripts/install-deps.sh test
swift build -c release --product courier
swift build -c release --product courier-curl-bench
exec python3 scripts/bench.py "$@"
