#!/usr/bin/env bash
# Generates Swift declarations (`courier generate`) from every fixture document in Tests/Fixtures/OpenAPI/
# (and generate/, the generator's own, and read/valid/, one per construct the reader reads), and from the social API's own document (`courier openapi`), and type-checks each set of files against
# the built modules, as a user's code would. Then the round trip: the social API's generated
# declarations are built into a small program that prints their OpenAPI document, which must be
# equivalent to the one they were generated from (scripts/openapi-equivalent.py: objects and the
# unordered lists of OpenAPI — required, enum, tags, parameters, security — compared without order).
# Prints, per document, its operations and what the generator could not declare. The declarations
# generated from generate/round-trip.yaml (media types, formats through $ref, security schemes, forms,
# servers) and from generate/round-trip-responses.yaml (responses absent, error-only and redirect-only operations,
# several success statuses, an error model per operation, anyOf and oneOf models, number bounds) must each
# write a document that `courier contract diff` finds no breaking change in against it.
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
objects=()
for module in Courier CourierContract CourierContractModel CourierSchema CourierPrimitives CourierJSON CourierCookies; do
  objects+=("$build/$module.build"/*.o)
done

# print_document DIR OUT: builds the declarations generated in DIR into a program printing their
# OpenAPI document, and writes it to OUT.
print_document() {
  local dir="$1" out="$2" namespace
  namespace="$(basename "$(ls "$dir"/*Document.swift)" .swift)"
  mkdir -p "$dir.program"
  printf 'import CourierContract\nimport Foundation\n\nFileHandle.standardOutput.write(try %s.openAPI().prettyData())\n' \
    "$namespace" >"$dir.program/main.swift"
  swiftc -I "$modules" -o "$dir.program/print-document" "$dir"/*.swift "$dir.program/main.swift" "${objects[@]}" \
    >"$dir.program/build.log" 2>&1 && "$dir.program/print-document" >"$out"
}

failed=0
for document in Tests/Fixtures/OpenAPI/*.yaml Tests/Fixtures/OpenAPI/*.json Tests/Fixtures/OpenAPI/generate/*.yaml \
  Tests/Fixtures/OpenAPI/read/valid/*.yaml Tests/Fixtures/OpenAPI/read/valid/*/openapi.yaml "$work/social.json"; do
  [ -f "$document" ] || continue
  name="$(basename "${document%.*}")"
  [ "$name" != openapi ] || name="$(basename "$(dirname "$document")")"
  out="$work/$name"
  if ! "$courier" generate "$document" --output "$out" --report "$out.report.json" 2>"$out.stderr"; then
    echo "generate-check: $name: generate failed"; cat "$out.stderr"; failed=$((failed + 1)); continue
  fi
  functions="$(grep -ho 'static func [A-Za-z_`][A-Za-z0-9_`]*(' "$out"/*.swift | grep -vcE 'static func (openAPI|baseURL)\(' || true)"
  summary="$(python3 - "$out.report.json" <<'PY'
import json, sys
found = json.load(open(sys.argv[1]))
features = [f for f in found if not f["documentation"]]
print(f"{len(features)} parts not declared, {len(found) - len(features)} descriptions or examples")
PY
)"
  if output="$(swiftc -typecheck -parse-as-library -I "$modules" "$out"/*.swift 2>&1)"; then
    echo "generate-check: $name: $functions operations generated and type-checked; $summary"
    # What the generated declarations claim that the document does not promise (the statuses every
    # declaration adds, say): reported, not failed, since the generator lists it as not declared.
    if print_document "$out" "$out.written.json"; then
      "$courier" contract diff "$document" --client "$out.written.json" --json >"$out.drift.json" || true
      if ! python3 - "$name" "$out.drift.json" <<'PY'
import collections, json, sys
name, report = sys.argv[1], json.load(open(sys.argv[2]))
rules = collections.Counter(change["rule"] for change in report["breaking"])
listed = ", ".join(f"{rule} {count}" for rule, count in sorted(rules.items())) or "none"
print(f"generate-check: {name}: the declarations against the document: breaking {listed}; "
      f"{len(report['harmless'])} harmless")
if name.startswith("round-trip"):
    for change in report["breaking"]:
        print(f"generate-check: {name}: {change['operation']} [{change['rule']}] {change['message']}")
    sys.exit(1 if report["breaking"] else 0)
PY
      then
        failed=$((failed + 1))
      fi
    else
      echo "generate-check: $name: the generated declarations do not build into a program"; head -20 "$out.program/build.log"
      failed=$((failed + 1))
    fi
  else
    echo "generate-check: $name: the generated code does not compile"; echo "$output" | head -40
    failed=$((failed + 1))
  fi
done
# `--access public`: the round-trip fixture's declarations, built as a library module, are used from
# another module (a model made with its initializer, an operation called, the base URL built).
public_dir="$work/public"
if "$courier" generate Tests/Fixtures/OpenAPI/generate/round-trip.yaml --output "$public_dir/Museum" \
  --access public --no-format 2>/dev/null \
  && swiftc -emit-module -parse-as-library -module-name Museum -I "$modules" -emit-module-path "$public_dir/Museum.swiftmodule" \
    "$public_dir/Museum"/*.swift >"$public_dir.log" 2>&1 \
  && printf '%s\n' 'import Museum' 'import Foundation' \
    'let ticket = Ticket(ticketDate: "2026-12-07", email: "a@example.com")' \
    'let call = TicketsAPI.buy(body: ticket)' 'print(call.operation.id, MuseumDocument.baseURL()?.absoluteString ?? "")' \
    >"$public_dir/client.swift" \
  && swiftc -typecheck -I "$modules" -I "$public_dir" "$public_dir/client.swift" >>"$public_dir.log" 2>&1; then
  echo "generate-check: --access public: another module uses the round-trip fixture's declarations"
else
  echo "generate-check: --access public: the declarations are not usable from another module"; head -20 "$public_dir.log"
  failed=$((failed + 1))
fi

# The round trip: the social API's declarations, generated, write the document they came from.
if [ -f "$work/social.written.json" ] && scripts/openapi-equivalent.py "$work/social.json" "$work/social.written.json"; then
  echo "generate-check: round trip: the social API's generated declarations write an equivalent document"
else
  echo "generate-check: round trip: the documents differ"; failed=$((failed + 1))
fi
[ "$failed" -eq 0 ] || { echo "generate-check: $failed failed"; exit 1; }
