#!/usr/bin/env bash
# Type-checks every ```swift block of the library documentation (doc comments in Sources, MockServer
# and Endpoints, and the DocC articles beside them) as a user's code would: against the built modules,
# public API alone.
#
# Each block becomes the main.swift of its own program (so top-level statements and `await` are
# allowed), which imports Foundation, the block's module, the library modules that module imports,
# and Tests/DocSnippets/Prelude.swift, compiled once as a module of its own: the few names a block may
# use without declaring them (`manager`, `NotesAPI`, `Note`, `baseURL`, `transport`…). A block that
# needs another module imports it itself, as its reader must; a test (`@Test`, `#expect`) gets
# `import Testing`. Diagnostics name the documented file and
# line. A block whose first line is `// not compiled: <reason>` is skipped and counted.
# Usage: scripts/check-doc-snippets.sh [FILE…]   (after `swift build`; env: MODULES=.build/debug/Modules)
set -euo pipefail
cd "$(dirname "$0")/.."
modules="${MODULES:-.build/debug/Modules}"
[ -d "$modules" ] || { echo "doc-snippets: no built modules in $modules; run swift build first" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
clang_paths=(-I "$modules/../CCurlShim.build" -I Sources/CCurlShim/include -I Sources/CCurl)

swiftc -emit-module -parse-as-library -suppress-warnings -module-name DocSnippetPrelude -I "$modules" \
  -emit-module-path "$work/DocSnippetPrelude.swiftmodule" Tests/DocSnippets/Prelude.swift

# The libraries a user can import: the package's library products.
products=" $(sed -n 's/^ *\.library(name: "\([A-Za-z]*\)".*/\1/p' Package.swift | tr '\n' ' ') "

# The module a file belongs to, by its folder.
module_of() {
  case "$1" in
    Sources/*) cut -d/ -f2 <<<"$1" ;;
    MockServer/Contract/*) echo MockServerContract ;;
    MockServer/OpenAPI/*) echo MockServerOpenAPI ;;
    MockServer/Social/*) echo SocialBackend ;;
    MockServer/Pact/*) echo MockServerPact ;;
    *) cut -d/ -f1 <<<"$1" ;;
  esac
}

# The library modules a module's own sources import (its module included).
imports_of() {
  local module="$1" folder="$2" name
  echo "$module"
  grep -rhoE '^ *(@_exported |public |package |internal )?import [A-Za-z_]+' --include='*.swift' "$folder" |
    awk '{print $NF}' | sort -u | while read -r name; do
      [ "$name" != "$module" ] && [[ "$products" == *" $name "* ]] && echo "$name"
    done
  return 0
}

if [ "$#" -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(
    find Sources MockServer Endpoints \( -name '*.swift' -o -path '*.docc/*.md' \) -type f | sort |
      xargs grep -l '```swift'
  )
fi

count=0
for file in "${files[@]}"; do
  module="$(module_of "$file")"
  case "$file" in
    Sources/*) folder="Sources/$module" ;;
    MockServer/Contract/*) folder="MockServer/Contract" ;;
    MockServer/OpenAPI/*) folder="MockServer/OpenAPI" ;;
    MockServer/Social/*) folder="MockServer/Social" ;;
    MockServer/Pact/*) folder="MockServer/Pact" ;;
    *) folder="$module" ;;
  esac
  header="$(
    echo "import Foundation"
    echo "#if canImport(FoundationNetworking)"
    echo "    import FoundationNetworking"
    echo "#endif"
    echo "import DocSnippetPrelude"
    imports_of "$module" "$folder" | sed 's/^/import /'
  )"
  # Each block: the lines between ```swift and ```, without the `///` before them.
  while IFS=: read -r start end; do
    count=$((count + 1))
    dir="$work/$count"
    mkdir -p "$dir"
    echo "$file:$start" >"$dir/where"
    {
      echo "$header"
      # A test (`@Test`, `#expect`) imports the framework it is written in.
      sed -n "$((start + 1)),$((end - 1))p" "$file" | grep -qE '@Test|#expect' && echo "import Testing"
      echo "#sourceLocation(file: \"$file\", line: $((start + 1)))"
      sed -n "$((start + 1)),$((end - 1))p" "$file" | sed -E 's|^ *///( \|$)||'
      echo "#sourceLocation()"
    } >"$dir/main.swift"
  done < <(awk '/^ *(\/\/\/ *)?```swift *$/ { start = FNR; next }
               start && /^ *(\/\/\/ *)?``` *$/ { print start ":" FNR; start = 0 }' "$file")
done

# Type-checks one block; writes its verdict next to it.
check() {
  local dir="$1" first
  first="$(sed -n '/^#sourceLocation(file/{n;p;q}' "$dir/main.swift")"
  if [[ "$first" =~ ^//\ not\ compiled:\ (.+)$ ]]; then
    echo "skipped (${BASH_REMATCH[1]})" >"$dir/verdict"
  elif swiftc -typecheck -suppress-warnings -I "$work" -I "$modules" "${clang_paths[@]}" \
    "$dir/main.swift" >"$dir/output" 2>&1; then
    echo "compiles" >"$dir/verdict"
  else
    echo "does not compile" >"$dir/verdict"
  fi
}
export -f check
export work modules
export clang_paths_flat="${clang_paths[*]}"
seq 1 "$count" | xargs -P "${JOBS:-2}" -I{} bash -c 'clang_paths=($clang_paths_flat); check "$work/{}"'

passed=0
failed=0
skipped=0
for n in $(seq 1 "$count"); do
  dir="$work/$n"
  verdict="$(cat "$dir/verdict")"
  echo "doc-snippets: $(cat "$dir/where") $verdict"
  case "$verdict" in
    compiles) passed=$((passed + 1)) ;;
    skipped*) skipped=$((skipped + 1)) ;;
    *) failed=$((failed + 1)); sed 's/^/    /' "$dir/output" ;;
  esac
done
echo "doc-snippets: $passed passed, $failed failed, $skipped not compiled"
[ "$failed" -eq 0 ]
