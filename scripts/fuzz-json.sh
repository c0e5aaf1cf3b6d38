#!/usr/bin/env bash
# Fuzzes CourierJSONDecoder against Foundation's JSONDecoder with libFuzzer for a bounded time.
#
#   scripts/fuzz-json.sh                      # 45 s
#   FUZZ_SECONDS=600 scripts/fuzz-json.sh     # longer
#   FUZZ_JOBS=2 scripts/fuzz-json.sh          # parallel workers
#
# The harness (Tests/FuzzJSON/JSONDecoderFuzz.swift) is compiled together with the decoder's sources
# (Sources/CourierJSON) and the differential oracle of the unit tests, with -sanitize=fuzzer,address.
# Every input must decode to the same value with both decoders or fail with the same DecodingError.
# Seeds come from Tests/FuzzJSON/corpus and Tests/FuzzJSON/regressions; new coverage goes to
# .build/fuzz-json/corpus (not committed). On a crash, mismatch, leak or timeout the input is copied
# to Tests/FuzzJSON/regressions/ and the script exits non-zero.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
seconds="${FUZZ_SECONDS:-45}"
jobs="${FUZZ_JOBS:-1}"
work=".build/fuzz-json"
binary="$work/json-decoder-fuzz"
mkdir -p "$work/corpus" "$work/artifacts" Tests/FuzzJSON/regressions

sources=(
  Tests/FuzzJSON/JSONDecoderFuzz.swift
  Tests/CourierJSONTests/JSONDifferentialCheck.swift
  Sources/CourierJSON/*.swift
)
echo "fuzz-json: compiling ${sources[*]}"
rm -f "$binary"
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name JSONDecoderFuzz \
  "${sources[@]}" -o "$binary" 2>&1 | grep -v "ld.gold: warning: Cannot export local symbol" || true
[ -x "$binary" ] || { echo "fuzz-json: compile failed" >&2; exit 1; }

rm -f "$work"/artifacts/*
# Swift's own crash backtracer trips AddressSanitizer after a fatalError; libFuzzer reports the crash.
export SWIFT_BACKTRACE=enable=no
echo "fuzz-json: running for ${seconds} s with ${jobs} job(s)"
set +e
"$binary" "$work/corpus" Tests/FuzzJSON/corpus Tests/FuzzJSON/regressions \
  -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
  ${FUZZ_JOBS:+-jobs="$jobs" -workers="$jobs"} >"$work/last-run.log" 2>&1
status=$?
set -e

found=0
for artifact in "$work"/artifacts/*; do
  [ -e "$artifact" ] || continue
  name="$(basename "$artifact")"
  cp "$artifact" "Tests/FuzzJSON/regressions/$name"
  echo "fuzz-json: saved $name to Tests/FuzzJSON/regressions/"
  found=1
done
grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)|^Done [0-9]+ runs" \
  "$work/last-run.log" | sort -u || true
echo "fuzz-json: corpus now $(ls "$work/corpus" | wc -l) inputs in $work/corpus"
if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
  grep -v "^#[0-9]" "$work/last-run.log" | tail -60 >&2
  echo "fuzz-json: FAILED (libFuzzer exit $status); full log in $work/last-run.log" >&2
  exit 1
fi
echo "fuzz-json: no crash or mismatch in ${seconds} s"
