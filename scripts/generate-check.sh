#!/usr/bin/env bash
# Generates Swift declarations (`courier generate`) from every fixture document in Tests/Fixtures/OpenAPI/
# (and generate/, the generator's own), and from the social API's own document (`courier openapi`), and type-checks each set of files against
# the built modules, as a user's code would. Then the round trip: the social API's generated
# declarations are built into a small program that prints their OpenAPI document, which must be
# equivalent to the one they were generated from (scripts/openapi-equivalent.py: objects and the
# unordered lists of OpenAPI — required, enum, tags, parameters, security — compared without order).
# Prints, per document, its operations and what the generator could not declare.
# Usage: scripts/generate-check.sh   (after `swift build`; env: MODULES=.build/debug/Modules)
set -euo pipefail
cd "$(dirname "$0")/.."
modules="${MODULES:-.build/debug/Modules}"
build="$(dirname "$modules")"
courier="$build/courier"
[ -x "$courier" ] || { echo "generate-check: no $courier; run swift build first" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
scripts/openapi-equivalent.py --self-test
"$courier" openapi --output "$work/social.json"
failed=0
for document in Tests/Fixtures/OpenAPI/*.yaml Tests/Fixtures/OpenAPI/*.json Tests/Fixtures/OpenAPI/generate/*.yaml \
  "$work/social.json"; do
  [ -f "$document" ] || continue
  name="$(basename "${document%.*}")"
  out="$work/$name"
  if ! "$courier" generate "$document" --output "$out" --report "$out.report.json" 2>"$out.stderr"; then
    echo "generate-check: $name: generate failed"; cat "$out.stderr"; failed=$((failed + 1)); continue
  fi
  functions="$(grep -ho 'static func [A-Za-z_`][A-Za-z0-9_`]*(' "$out"/*.swift | grep -vc 'static func openAPI(' || true)"
  summary="$(python3 - "$out.report.json" <<'PY'
import json, sys
found = json.load(open(sys.argv[1]))
features = [f for f in found if not f["documentation"]]
print(f"{len(features)} parts not declared, {len(found) - len(features)} descriptions or examples")
PY
)"
  if output="$(swiftc -typecheck -parse-as-library -I "$modules" "$out"/*.swift 2>&1)"; then
    echo "generate-check: $name: $functions operations generated and type-checked; $summary"
  else
    echo "generate-check: $name: the generated code does not compile"; echo "$output" | head -40
    failed=$((failed + 1))
  fi
done
# The round trip: the social API's declarations, generated, write the document they came from.
program="$work/roundtrip"
mkdir -p "$program"
namespace="$(basename "$(ls "$work/social"/*Document.swift)" .swift)"
cat >"$program/main.swift" <<SWIFT
import CourierContract
import Foundation

FileHandle.standardOutput.write(try ${namespace}.openAPI().prettyData())
SWIFT
objects=()
for module in Courier CourierContract CourierPrimitives CourierJSON CourierCookies; do
  objects+=("$build/$module.build"/*.o)
done
if swiftc -I "$modules" -o "$program/print-document" "$work/social"/*.swift "$program/main.swift" "${objects[@]}" \
  >"$program/build.log" 2>&1 && "$program/print-document" >"$work/roundtrip.json"; then
  if scripts/openapi-equivalent.py "$work/social.json" "$work/roundtrip.json"; then
    echo "generate-check: round trip: the social API's generated declarations write an equivalent document"
  else
    echo "generate-check: round trip: the documents differ"; failed=$((failed + 1))
  fi
else
  echo "generate-check: round trip: the program does not build or run"; head -40 "$program/build.log"
  failed=$((failed + 1))
fi
[ "$failed" -eq 0 ] || { echo "generate-check: $failed failed"; exit 1; }
