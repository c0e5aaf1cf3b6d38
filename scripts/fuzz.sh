#!/usr/bin/env bash
# Fuzzes the mock server's HTTP request parser with libFuzzer for a bounded time.
#
#   scripts/fuzz.sh                      # 60 s
#   FUZZ_SECONDS=600 scripts/fuzz.sh     # longer
#   FUZZ_JOBS=2 scripts/fuzz.sh          # parallel workers
#
# The harness (Tests/Fuzz/HTTPParserFuzz.swift) is compiled together with the parser's sources from
# MockServer/HTTP, with -sanitize=fuzzer,address. Seeds come from Tests/Fuzz/corpus and
# Tests/Fuzz/regressions; new coverage goes to .build/fuzz/corpus (not committed). On a crash, leak or
# timeout the input is copied to Tests/Fuzz/regressions/ and the script exits non-zero.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
seconds="${FUZZ_SECONDS:-60}"
jobs="${FUZZ_JOBS:-1}"
work=".build/fuzz"
binary="$work/http-parser-fuzz"
mkdir -p "$work/corpus" "$work/artifacts" Tests/Fuzz/regressions

sources=(
  Tests/Fuzz/HTTPParserFuzz.swift
  MockServer/HTTP/HTTPRequestParser.swift
  MockServer/HTTP/HTTPRequestParser+ChunkExtensions.swift
  MockServer/HTTP/HTTPParseError.swift
  MockServer/HTTP/ServerHeaders.swift
  MockServer/HTTP/ServerRequest.swift
)
echo "fuzz: compiling ${sources[*]}"
rm -f "$binary"
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name HTTPParserFuzz \
  "${sources[@]}" -o "$binary" 2>&1 | grep -v "ld.gold: warning: Cannot export local symbol" || true
[ -x "$binary" ] || { echo "fuzz: compile failed" >&2; exit 1; }

rm -f "$work"/artifacts/*
# Swift's own crash backtracer trips AddressSanitizer after a fatalError; libFuzzer reports the crash.
export SWIFT_BACKTRACE=enable=no
echo "fuzz: running for ${seconds} s with ${jobs} job(s)"
set +e
"$binary" "$work/corpus" Tests/Fuzz/corpus Tests/Fuzz/regressions \
  -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
  ${FUZZ_JOBS:+-jobs="$jobs" -workers="$jobs"} >"$work/last-run.log" 2>&1
status=$?
set -e

found=0
for artifact in "$work"/artifacts/*; do
  [ -e "$artifact" ] || continue
  name="$(basename "$artifact")"
  cp "$artifact" "Tests/Fuzz/regressions/$name"
  echo "fuzz: saved $name to Tests/Fuzz/regressions/"
  found=1
done
grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)|^Done [0-9]+ runs" \
  "$work/last-run.log" | sort -u || true
echo "fuzz: corpus now $(ls "$work/corpus" | wc -l) inputs in $work/corpus"
if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
  grep -v "^#[0-9]" "$work/last-run.log" | tail -60 >&2
  echo "fuzz: FAILED (libFuzzer exit $status); full log in $work/last-run.log" >&2
  exit 1
fi
echo "fuzz: no crash in ${seconds} s"
