#!/usr/bin/env bash
# Fuzzes the mock server with libFuzzer for a bounded time, one target after another:
#
#   http-parser   the HTTP/1.1 request parser          (Tests/Fuzz/HTTPParserFuzz.swift)
#   template      response-template compile + render   (Tests/Fuzz/TemplateFuzz.swift)
#   jsonpath      JSONPath compile + evaluate           (Tests/Fuzz/JSONPathFuzz.swift)
#   mapping       WireMock mapping loading + serving    (Tests/Fuzz/MappingFuzz.swift)
#
#   scripts/fuzz.sh                            # 60 s in all, split across the targets
#   FUZZ_SECONDS=600 scripts/fuzz.sh           # longer
#   FUZZ_TARGETS="template jsonpath" scripts/fuzz.sh
#   FUZZ_JOBS=2 scripts/fuzz.sh                # parallel workers
#
# Each harness is compiled together with the sources it exercises, with -sanitize=fuzzer,address. Seeds
# come from Tests/Fuzz/corpus[-TARGET] and Tests/Fuzz/regressions[-TARGET]; new coverage goes to
# .build/fuzz/TARGET/corpus (not committed). On a crash, leak or timeout the input is copied to the
# target's regressions folder and the script exits non-zero after the remaining targets ran.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
total="${FUZZ_SECONDS:-60}"
jobs="${FUZZ_JOBS:-1}"
targets=(${FUZZ_TARGETS:-http-parser template jsonpath mapping})
seconds=$((total / ${#targets[@]}))
[ "$seconds" -ge 5 ] || seconds=5

http_sources=(
  MockServer/HTTP/HTTPRequestParser.swift
  MockServer/HTTP/HTTPRequestParser+ChunkExtensions.swift
  MockServer/HTTP/HTTPParseError.swift
  MockServer/HTTP/ServerHeaders.swift
  MockServer/HTTP/ServerRequest.swift
  MockServer/HTTP/RequestMemo.swift
  Sources/CourierPrimitives/*.swift
)
# The stub engine and what it needs from the HTTP layer (no sockets, no event loop).
stub_sources=(
  MockServer/Stubs/*/*.swift
  MockServer/HTTP/ServerRequest.swift
  MockServer/HTTP/RequestMemo.swift
  MockServer/HTTP/ServerHeaders.swift
  MockServer/HTTP/ServerResponse.swift
  MockServer/HTTP/DeferredResponse.swift
  MockServer/HTTP/HTTPRequestParser.swift
  MockServer/HTTP/HTTPRequestParser+ChunkExtensions.swift
  MockServer/HTTP/HTTPParseError.swift
  MockServer/HTTP/ResponseEncoding.swift
  Sources/CourierPrimitives/*.swift
)

failed=0
summary=()
run_target() {
  local name="$1" harness="$2" module="$3" max_len="$4" corpus="$5" regressions="$6"
  shift 6
  local work=".build/fuzz/$name"
  local binary="$work/fuzz"
  mkdir -p "$work/corpus" "$work/artifacts" "$regressions"
  echo "fuzz[$name]: compiling $harness with ${#@} sources"
  rm -f "$binary"
  # Everything is compiled as one module, so the sources' imports of CourierPrimitives (compiled in) go.
  local src="$work/src"
  rm -rf "$src" && mkdir -p "$src"
  local file
  for file in "$@"; do sed '/^import CourierPrimitives$/d' "$file" >"$src/$(echo "$file" | tr / _)"; done
  swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name "$module" -package-name CourierFuzz \
    "$harness" "$src"/*.swift -o "$binary" 2>&1 | grep -v "ld.gold: warning: Cannot export local symbol" || true
  if [ ! -x "$binary" ]; then
    echo "fuzz[$name]: compile failed" >&2
    failed=1
    return
  fi
  rm -f "$work"/artifacts/*
  echo "fuzz[$name]: running for ${seconds} s with ${jobs} job(s)"
  set +e
  # Swift's own crash backtracer trips AddressSanitizer after a fatalError; libFuzzer reports the crash.
  # Leaks inside the platform's Foundation (not ours) are suppressed by name; see the file.
  SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$root/Tests/Fuzz/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}" "$binary" "$work/corpus" "$corpus" "$regressions" \
    -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
    ${FUZZ_JOBS:+-jobs="$jobs" -workers="$jobs"} >"$work/last-run.log" 2>&1
  local status=$?
  set -e
  local found=0
  for artifact in "$work"/artifacts/*; do
    [ -e "$artifact" ] || continue
    cp "$artifact" "$regressions/$(basename "$artifact")"
    echo "fuzz[$name]: saved $(basename "$artifact") to $regressions/"
    found=1
  done
  local runs cov
  runs=$(grep -E "^stat::number_of_executed_units" "$work/last-run.log" | tail -1 | grep -oE "[0-9]+$" || echo "?")
  cov=$(grep -oE "cov: [0-9]+ ft: [0-9]+" "$work/last-run.log" | tail -1 || echo "cov: ?")
  summary+=("fuzz[$name]: $runs executions, $cov, corpus $(ls "$work/corpus" | wc -l) inputs")
  if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
    grep -v "^#[0-9]" "$work/last-run.log" | tail -60 >&2
    echo "fuzz[$name]: FAILED (libFuzzer exit $status); full log in $work/last-run.log" >&2
    failed=1
  fi
}

for target in "${targets[@]}"; do
  case "$target" in
    http-parser)
      run_target http-parser Tests/Fuzz/HTTPParserFuzz.swift HTTPParserFuzz 4096 \
        Tests/Fuzz/corpus Tests/Fuzz/regressions "${http_sources[@]}" ;;
    template)
      run_target template Tests/Fuzz/TemplateFuzz.swift TemplateFuzz 1024 \
        Tests/Fuzz/corpus-template Tests/Fuzz/regressions-template "${stub_sources[@]}" ;;
    jsonpath)
      run_target jsonpath Tests/Fuzz/JSONPathFuzz.swift JSONPathFuzz 1024 \
        Tests/Fuzz/corpus-jsonpath Tests/Fuzz/regressions-jsonpath "${stub_sources[@]}" ;;
    mapping)
      run_target mapping Tests/Fuzz/MappingFuzz.swift MappingFuzz 4096 \
        Tests/Fuzz/corpus-mapping Tests/Fuzz/regressions-mapping "${stub_sources[@]}" ;;
    *)
      echo "fuzz: unknown target '$target' (http-parser, template, jsonpath, mapping)" >&2
      exit 2 ;;
  esac
done
printf '%s\n' "${summary[@]}"
if [ "$failed" -ne 0 ]; then
  echo "fuzz: FAILED" >&2
  exit 1
fi
echo "fuzz: no crash in ${seconds} s per target (${targets[*]})"
