#!/usr/bin/env bash
# Fails when a platform-specific module is imported, or named as a qualifier (`Glibc.read`), outside a
# conditional-compilation guard for it. We cannot compile for Apple platforms (or Musl, Windows, Android)
# here, so this source scan stands in for those builds.
#
# Guarded means: inside a `#if` / `#elseif` branch whose condition is `canImport(<that module>)` or an
# `os(...)` test (not negated), or inside the `#else` branch of such a chain (the author's choice for the
# other platforms). With --strict an `#else` branch does not count: it also holds on platforms nobody
# named, such as Musl or Windows.
#
#   scripts/check-platform-imports.sh [--strict]              scan Sources, Endpoints, MockServer, Tests
#   scripts/check-platform-imports.sh [--strict] FILE|DIR...  scan these instead
#   scripts/check-platform-imports.sh --self-test             show that good files pass and bad ones fail
#
# Prints file:line: reason for each offender and exits 1 when there is any.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --self-test ]; then
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  cat >"$dir/Good.swift" <<'EOF'
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
/// Calls Glibc.read, in a comment: not code.
func f() -> Int {
    #if canImport(Glibc)
        #if DEBUG
            return Glibc.getpid() == 0 ? 1 : 0
        #else
            return Int(Glibc.getpid())
        #endif
    #elseif os(macOS)
        return Int(Darwin.getpid())
    #endif
}
let text = "Darwin.read in a string is not code"
EOF
  cat >"$dir/Bad.swift" <<'EOF'
#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif
import Musl
#if canImport(Darwin)
    @_exported import Glibc
#endif
#if !os(Linux)
    import WinSDK
#endif
func g() -> Int { Int(Glibc.getpid()) }
#if DEBUG
#else
    import Android
#endif
EOF
  status=0
  for mode in default --strict; do
    flag=(); [ "$mode" = --strict ] && flag=(--strict)
    if ! "$0" "${flag[@]}" "$dir/Good.swift" >"$dir/good.out"; then
      echo "self-test ($mode): the guarded file was refused:"; cat "$dir/good.out"; status=1
    fi
    if "$0" "${flag[@]}" "$dir/Bad.swift" >"$dir/bad.out"; then
      echo "self-test ($mode): the unguarded file was accepted"; status=1
    fi
    # Bad.swift offends on lines 6 (bare), 8 (guard for another module), 11 (negated guard), 13 (call),
    # 16 (#else of a chain that tests no platform), and with --strict also 4 (#else of a platform chain).
    expected="6 8 11 13 16"; [ "$mode" = --strict ] && expected="4 $expected"
    got=$(sed -n 's/^.*Bad\.swift:\([0-9]*\):.*$/\1/p' "$dir/bad.out" | tr '\n' ' ' | sed 's/ $//')
    if [ "$got" != "$expected" ]; then
      echo "self-test ($mode): expected offenders on lines $expected of Bad.swift, got: ${got:-none}"
      cat "$dir/bad.out"; status=1
    fi
  done
  [ "$status" = 0 ] && echo "check-platform-imports self-test: ok (the good file passes, the bad one fails where expected)"
  exit "$status"
fi

strict=0
if [ "${1:-}" = --strict ]; then strict=1; shift; fi
if [ "$#" -gt 0 ]; then roots=("$@"); else roots=(Sources Endpoints MockServer Tests); fi

if ! find "${roots[@]}" -name '*.swift' -type f -print0 | sort -z | xargs -0 -r awk -v strict="$strict" '
  function reset_file() { depth = 0; in_block_comment = 0 }
  # The condition of an #if / #elseif as the list of modules and platforms it guards: "M:<module>" for each
  # canImport(<module>) and "OS" for os(...), skipping negated ones.
  function guards_of(cond,   out, rest, m) {
    out = " "
    rest = cond
    while (match(rest, /!?[ \t]*canImport\([ \t]*[A-Za-z_][A-Za-z0-9_]*/)) {
      m = substr(rest, RSTART, RLENGTH)
      if (m !~ /^!/) { sub(/^.*canImport\([ \t]*/, "", m); out = out "M:" m " " }
      rest = substr(rest, RSTART + RLENGTH)
    }
    rest = cond
    while (match(rest, /!?[ \t]*os\(/)) {
      m = substr(rest, RSTART, RLENGTH)
      if (m !~ /^!/) out = out "OS "
      rest = substr(rest, RSTART + RLENGTH)
    }
    return out
  }
  function guarded(module,   i) {
    for (i = 1; i <= depth; i++) {
      if (index(branch[i], " M:" module " ") || index(branch[i], " OS ")) return 1
    }
    return 0
  }
  function report(line, why) {
    printf "%s:%d: %s\n", FILENAME, FNR, why
    bad++
  }
  FNR == 1 { reset_file() }
  {
    line = $0
    # Drop block comments, line comments and string literals (well enough for this check).
    if (in_block_comment) {
      if (index(line, "*/") == 0) next
      line = substr(line, index(line, "*/") + 2)
      in_block_comment = 0
    }
    gsub(/\/\*.*\*\//, "", line)
    if (index(line, "/*")) { line = substr(line, 1, index(line, "/*") - 1); in_block_comment = 1 }
    gsub(/"([^"\\]|\\.)*"/, "\"\"", line)
    sub(/\/\/.*$/, "", line)

    # branch[d]: what the current branch at depth d guards; platform[d]: whether its chain tested a platform.
    if (line ~ /^[ \t]*#if[ \t(!]/) {
      depth++; branch[depth] = guards_of(line); platform[depth] = (branch[depth] != " "); next
    }
    if (line ~ /^[ \t]*#elseif[ \t(!]/) {
      if (depth) { branch[depth] = guards_of(line); if (branch[depth] != " ") platform[depth] = 1 }
      next
    }
    if (line ~ /^[ \t]*#else([ \t]|$)/) {
      if (depth) branch[depth] = (platform[depth] && !strict) ? " OS " : " "
      next
    }
    if (line ~ /^[ \t]*#endif([ \t]|$)/) { if (depth) depth--; next }

    modules = "Glibc|Darwin|Musl|FoundationNetworking|WinSDK|Android"
    if (match(line, "^[ \t]*(@[A-Za-z_]+[ \t]+)*import[ \t]+((typealias|struct|class|enum|protocol|let|var|func)[ \t]+)?(" modules ")([ \t.]|$)")) {
      stmt = substr(line, RSTART, RLENGTH)
      sub(/[ \t.]$/, "", stmt)
      module = stmt
      sub(/^.*[ \t]/, "", module)
      if (!guarded(module)) report(line, "import " module " outside #if canImport(" module ") / #if os(...)")
      next
    }
    rest = line
    while (match(rest, "(^|[^A-Za-z0-9_.])(" modules ")\\.[A-Za-z_]")) {
      call = substr(rest, RSTART, RLENGTH)
      sub(/^[^A-Za-z]/, "", call)
      module = call
      sub(/\..*$/, "", module)
      if (!guarded(module)) { report(line, module ". used outside #if canImport(" module ") / #if os(...)"); break }
      rest = substr(rest, RSTART + RLENGTH)
    }
  }
  END {
    if (bad) { printf "check-platform-imports: %d unguarded use(s) of a platform module\n", bad; exit 1 }
  }
'; then
  exit 1
fi
