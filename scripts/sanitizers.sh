#!/usr/bin/env bash
# Builds and runs the whole test suite under ThreadSanitizer and AddressSanitizer, each in its own scratch
# path (.build/tsan, .build/asan) so the normal debug build is left alone. Slow: two full builds.
#
#   scripts/sanitizers.sh                        # thread, then address
#   SANITIZERS=address scripts/sanitizers.sh     # one of them
#   SANITIZER_FILTER=ReliabilityTests scripts/sanitizers.sh
#   SANITIZER_SKIP='SuiteA|SuiteB' scripts/sanitizers.sh          # leave some suites out (none by default)
#   SANITIZER_TEST_SECONDS=1800 scripts/sanitizers.sh              # the bound on each test run (default 30 min)
#
# Under ThreadSanitizer every suite runs. Shared state in Courier, CourierCurl, Endpoints and MockServer is
# behind `Locked` (a pthread mutex TSan intercepts), not `Synchronization.Mutex`, whose futex TSan cannot see
# on Linux. Tests that spawn the `courier` binary run the TSan build of it; a report there goes to the
# child's stderr (captured by the test) and makes it exit 66, so the test fails.
#
# Every suite runs under both, the ones that start programs too: tests start them with
# `Tests/Support/Subprocess.swift` (posix_spawn), not Foundation's `Process`, whose `run()` trips a
# heap-buffer-overflow report inside swift-corelibs-foundation (findMaximumOpenFromProcSelfFD) under ASan.
# The `courier` binary those tests start is the sanitizer build, so a report in it fails its test.
#
# Exits non-zero when a build fails, a sanitizer reports anything, the test process crashes or the run
# outlives its bound (the tests still running are listed). Reports are kept in
# .build/<tsan|asan>/sanitizer-test.log. There are no suppression files.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
sanitizers="${SANITIZERS:-thread address}"
filter="${SANITIZER_FILTER:-}"
# Swift's crash backtracer and the sanitizers' own reports get in each other's way; keep the sanitizer's.
export SWIFT_BACKTRACE=enable=no
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0 second_deadlock_stack=1}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1 detect_stack_use_after_return=0}"
# Swift Testing starts every test at once. Under a sanitizer on 2 cores that starves the cooperative pool:
# trivial tests took 160 s, suites hit their time limits, idle timeouts fired everywhere. A few tests at a
# time finish the whole suite sooner (87 s under TSan) and let each test's own time bound mean something.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-6}"
# Seconds the test run under each sanitizer may take (it takes a few minutes on 2 cores).
limit="${SANITIZER_TEST_SECONDS:-1800}"
failed=0

for sanitizer in $sanitizers; do
  case "$sanitizer" in
    thread) scratch=".build/tsan" ;;
    address) scratch=".build/asan" ;;
    *) echo "sanitizers: unknown sanitizer '$sanitizer' (thread, address)" >&2; exit 2 ;;
  esac
  log="$scratch/sanitizer-test.log"
  skip="${SANITIZER_SKIP:-}"
  mkdir -p "$scratch"
  echo "sanitizers: building with --sanitize=$sanitizer in $scratch"
  start=$(date +%s)
  if ! swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" >"$scratch/sanitizer-build.log" 2>&1; then
    tail -40 "$scratch/sanitizer-build.log" >&2
    echo "sanitizers: $sanitizer build FAILED" >&2
    failed=1
    continue
  fi
  echo "sanitizers: built in $(( $(date +%s) - start )) s; testing"
  start=$(date +%s)
  # Tests that bound time or loop many times scale down for a sanitizer build (several times slower).
  # A hung test must not eat CI's whole budget: the run is bounded, and what was still running is listed.
  COURIER_SANITIZER="$sanitizer" timeout --kill-after=30 "$limit" \
    swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" ${filter:+--filter "$filter"} \
    ${skip:+--skip "$skip"} >"$log" 2>&1
  status=$?
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "sanitizers: $sanitizer tests did not finish within $limit s; still running:" >&2
    scripts/unfinished-tests.py "$log" | head -40 >&2
  fi
  # The test process itself dying (a trap, a signal) fails the run even without a sanitizer report.
  if grep -q "exited with unexpected signal" "$log"; then
    echo "sanitizers: $sanitizer: the test process crashed:" >&2
    grep -E "exited with unexpected signal|Fatal error|Crash|fatal error" "$log" | head -10 >&2
    status=2
  elif [ -z "$filter" ] && ! grep -qE "Test run with [0-9]+ tests" "$log"; then
    echo "sanitizers: $sanitizer: the Swift Testing run never reported its end" >&2
    status=2
  fi
  reports=$(grep -cE "WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer" "$log")
  echo "sanitizers: $sanitizer tests exit $status in $(( $(date +%s) - start )) s, $reports sanitizer report(s)"
  grep -E "Test run with|Executed [0-9]+ tests" "$log" | tail -3
  if [ "$reports" -gt 0 ]; then
    grep -E -A12 "WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer" "$log" | head -80
  fi
  # A sanitizer report, or a crash (a test process killed by a signal), fails the run. Plain test failures
  # do not: under a sanitizer on 2 cores the time-bound tests starve (the same tests pass in `make test`,
  # which CI runs first); they are listed here so that they are seen.
  if [ "$reports" -gt 0 ] || [ "$status" -gt 1 ]; then failed=1; fi
  if [ "$status" -eq 1 ]; then
    echo "sanitizers: $sanitizer: test failures without a sanitizer report (timing under the sanitizer):"
    grep -E "^✘ Test .* recorded" "$log" | sed 's/ recorded an issue.*//' | sort | uniq -c | head -20
  fi
done

if [ "$failed" -ne 0 ]; then
  echo "sanitizers: FAILED (logs in .build/tsan and .build/asan)" >&2
  exit 1
fi
echo "sanitizers: clean"
