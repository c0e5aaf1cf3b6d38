#!/usr/bin/env bash
# Runs Courier on a corpus of real OpenAPI documents (published APIs and the OpenAPI Initiative's examples,
# listed in Tests/Fixtures/OpenAPI/corpus/SOURCES.md) and prints one table row per document:
#   read       `courier generate` reads the document (exit 65 says it cannot);
#   ops        the operations in the document, and the functions the generator wrote for them;
#   compiled   the declarations of every document, one module each in one temporary package, built by one
#              `swift build` against the built Courier modules;
#   round trip the declarations' own openAPI() document (one program prints them all) against the original
#              by `courier contract diff`: breaking changes, by rule;
#   mock       scripts/openapi-mock-check.sh against `courier mock --openapi` (MAX_EXAMPLES examples per
#              operation): schemathesis's failures, and how many of the answers openapi-core finds valid;
#              reported, not failed (the mock's own check holds it to the fixtures).
# Fails when a document is not read or its declarations do not compile, or when fewer than MIN_CLEAN percent
# of the documents round-trip with no breaking change.
# Where the corpus is: CORPUS, else Tests/Fixtures/OpenAPI/corpus/, else shared/openapi-corpus beside the
# clone; with none, it says so and stops.
# Usage: scripts/corpus-check.sh [DOCUMENT…]   (after `swift build`; env: CORPUS=dir, MODULES=.build/debug/Modules,
#        MAX_EXAMPLES=2, MOCK=0 to leave out the mock, MOCK_SECONDS=240 for each document's mock check, MIN_CLEAN=90,
#        TABLE=file to also write the table there, KEEP=dir to keep each document's declarations, written
#        document, diff and mock log there)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
modules="$(realpath "${MODULES:-.build/debug/Modules}")"
build="$(dirname "$modules")"
courier="$build/courier"
[ -x "$courier" ] || { echo "corpus-check: no $courier; run swift build first" >&2; exit 1; }
MAX_EXAMPLES="${MAX_EXAMPLES:-2}"
MOCK="${MOCK:-1}"
MIN_CLEAN="${MIN_CLEAN:-90}"
MOCK_SECONDS="${MOCK_SECONDS:-240}"

if [ $# -gt 0 ]; then documents=("$@"); else
  corpus="${CORPUS:-}"
  if [ -z "$corpus" ]; then
    for candidate in Tests/Fixtures/OpenAPI/corpus ../shared/openapi-corpus; do
      if compgen -G "$candidate/*.yaml" >/dev/null || compgen -G "$candidate/*.json" >/dev/null; then
        corpus="$candidate"; break
      fi
    done
  fi
  if [ -z "$corpus" ]; then
    echo "corpus-check: no corpus (Tests/Fixtures/OpenAPI/corpus/ or ../shared/openapi-corpus/); nothing checked"
    exit 0
  fi
  shopt -s nullglob
  documents=("$corpus"/*.yaml "$corpus"/*.json)
fi

work="$(mktemp -d)"
keep() {
  if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp -r "$work"/. "$KEEP"/ && rm -rf "$KEEP/package/.build"; fi
  rm -rf "$work"
}
trap keep EXIT
package="$work/package"
mkdir -p "$package/Sources/PrintDocuments" "$work/results"

# One module per document: Corpus_<name>, its declarations as `courier generate` writes them.
names=()
for document in "${documents[@]}"; do
  name="$(basename "${document%.*}")"
  module="Corpus_$(echo "$name" | tr -c 'A-Za-z0-9\n' '_')"
  result="$work/results/$name"
  mkdir -p "$result"
  echo "$document" >"$result/path"
  echo "$module" >"$result/module"
  names+=("$name")
  status=0
  "$courier" generate "$document" --output "$package/Sources/$module" --no-format --report "$result/report.json" \
    >/dev/null 2>"$result/generate.log" || status=$?
  case "$status" in
    0) echo yes >"$result/read" ;;
    65) echo no >"$result/read"; echo "corpus-check: $name: not read"; tail -5 "$result/generate.log" ;;
    *) echo "generate exit $status" >"$result/read"; echo "corpus-check: $name: generate failed"
       tail -5 "$result/generate.log"; rm -rf "${package:?}/Sources/$module" ;;
  esac
done

# write_package MODULE…: the package of those modules and a program that writes each one's document.
write_package() {
  local objects=() module
  for library in Courier CourierContract CourierContractModel CourierSchema CourierPrimitives CourierJSON CourierCookies; do
    objects+=("$build/$library.build"/*.o)
  done
  {
    echo '// swift-tools-version:6.0'
    echo 'import PackageDescription'
    echo "let include: [SwiftSetting] = [.unsafeFlags([\"-I\", \"$modules\"])]"
    echo 'let package = Package(name: "Corpus", targets: ['
    for module in "$@"; do
      echo "  .target(name: \"$module\", swiftSettings: include),"
    done
    printf '  .executableTarget(name: "PrintDocuments", dependencies: [%s], swiftSettings: include,\n' \
      "$(printf '"%s", ' "$@")"
    printf '    linkerSettings: [.unsafeFlags([%s])]),\n' "$(printf '"%s", ' "${objects[@]}")"
    echo '], swiftLanguageModes: [.v5])'
  } >"$package/Package.swift"
  {
    echo 'import CourierContract'
    echo 'import Foundation'
    for module in "$@"; do echo "import $module"; done
    echo 'let folder = URL(fileURLWithPath: CommandLine.arguments[1])'
    echo 'func write(_ name: String, _ document: () throws -> Data) {'
    echo '  do { try document().write(to: folder.appendingPathComponent(name + ".json")) } catch {'
    echo '    print("\(name): \(error)")'
    echo '  }'
    echo '}'
    for module in "$@"; do echo "write(\"$module\", $module.corpusDocument)"; done
  } >"$package/Sources/PrintDocuments/main.swift"
  # The declarations stay as generated (internal); one public function in each module writes its document.
  for module in "$@"; do
    namespace="$(basename "$(ls "$package/Sources/$module/"*Document.swift)" .swift)"
    printf 'import CourierContract\nimport Foundation\n\npublic func corpusDocument() throws -> Data { try %s.openAPI().prettyData() }\n' \
      "$namespace" >"$package/Sources/$module/CorpusPrint.swift"
  done
}

mapfile -t built < <(ls "$package/Sources" | grep '^Corpus_' || true)
echo "corpus-check: building ${#built[@]} modules in one package"
start=$SECONDS
for attempt in 1 2 3; do
  write_package "${built[@]}"
  if (cd "$package" && swift build -j 2 >"$work/build.log" 2>&1); then break; fi
  # The modules with errors leave the package; the others are built again without them.
  mapfile -t broken < <(grep -oE 'Sources/Corpus_[A-Za-z0-9_]+/[^:]*:[0-9]+:[0-9]+: error' "$work/build.log" \
    | sed -E 's#Sources/(Corpus_[A-Za-z0-9_]+)/.*#\1#' | sort -u)
  if [ ${#broken[@]} -eq 0 ]; then
    echo "corpus-check: the package does not build, and no document's module is to blame"; tail -30 "$work/build.log"
    exit 1
  fi
  for module in "${broken[@]}"; do
    grep -E "Sources/$module/[^:]*:[0-9]+:[0-9]+: error" "$work/build.log" | head -5 >"$work/$module.errors"
    built=("${built[@]/$module/}")
  done
  mapfile -t built < <(printf '%s\n' "${built[@]}" | grep . || true)
done
echo "corpus-check: built in $((SECONDS - start)) s"
mkdir -p "$work/written"
"$package/.build/debug/PrintDocuments" "$work/written"

for name in "${names[@]}"; do
  result="$work/results/$name"
  module="$(cat "$result/module")"
  document="$(cat "$result/path")"
  if [ -f "$work/$module.errors" ]; then
    cp "$work/$module.errors" "$result/compile-errors"
  elif [ -f "$work/written/$module.json" ]; then
    "$courier" contract diff "$document" --client "$work/written/$module.json" --json >"$result/diff.json" || true
  fi
  if [ "$MOCK" = 1 ] && [ "$(cat "$result/read")" = yes ]; then
    # Bounded: a document of hundreds of operations is stopped (the whole process group, mock included).
    status=0
    COURIER="$courier" MAX_EXAMPLES="$MAX_EXAMPLES" timeout "$MOCK_SECONDS" scripts/openapi-mock-check.sh \
      "$document" >"$result/mock.log" 2>&1 || status=$?
    [ "$status" -ne 124 ] || echo "stopped after $MOCK_SECONDS s" >"$result/mock-timeout"
  fi
done

# The virtualenv's python has PyYAML (for the YAML documents' operation counts); the system's may not.
python="$(realpath -m "${VENV:-.build/contract-venv}")/bin/python"
[ -x "$python" ] || python=python3
"$python" - "$work/results" "${TABLE:-}" "$MIN_CLEAN" "${names[@]}" <<'PY'
import collections, json, os, re, sys

folder, table_file, names = sys.argv[1], sys.argv[2], sys.argv[4:]
floor = float(sys.argv[3]) / 100
methods = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def load(path):
    text = open(path).read()
    if text.lstrip().startswith("{"):
        return json.loads(text)
    import yaml  # only for the YAML documents

    return yaml.safe_load(text)


def read(result, name):
    path = os.path.join(folder, result, name)
    return open(path).read().strip() if os.path.exists(path) else None


def mock_result(log):
    """schemathesis's failures and openapi-core's verdict on the answers, from openapi-mock-check.sh's log."""
    if log is None:
        return "-"
    if "courier mock did not start" in log:
        return "did not start"
    part = log.split("-- openapi-core")[0]
    found = re.search(r"=+ (\d+) (?:failure|error)", part)
    verdict = f"{found.group(1)} failures" if found else "passed"
    answers = re.search(r"openapi-core: (\d+) answers validated, (\d+) invalid", log)
    if answers:
        valid, invalid = int(answers.group(1)), int(answers.group(2))
        verdict += f"; {valid}/{valid + invalid} answers valid"
    return verdict


rows, clean, failed, notes = [], 0, [], []
for name in names:
    path = read(name, "path")
    document = load(path)
    operations = sum(1 for item in (document.get("paths") or {}).values() for key in item if key in methods)
    hooks = sum(1 for item in (document.get("webhooks") or {}).values() for key in item if key in methods)
    read_ok = read(name, "read")
    generated = "-"
    swift = os.path.join(os.path.dirname(folder), "package", "Sources", read(name, "module"))
    if os.path.isdir(swift):
        count = 0
        for file in os.listdir(swift):
            count += len(re.findall(r"static func (?!openAPI\(|baseURL\()\w+\(", open(os.path.join(swift, file)).read()))
        generated = str(count)
    errors = read(name, "compile-errors")
    compiled = "yes" if read_ok == "yes" and errors is None else "no"
    trip = "-"
    diff = os.path.join(folder, name, "diff.json")
    if os.path.exists(diff):
        report = json.load(open(diff))
        rules = collections.Counter(change["rule"] for change in report["breaking"])
        trip = ", ".join(f"{rule} {count}" for rule, count in sorted(rules.items())) or "0"
        if len(rules) > 5:  # the table stays readable: the total and the most frequent rules
            top = ", ".join(f"{rule} {count}" for rule, count in rules.most_common(3))
            trip = f"{sum(rules.values())} in {len(rules)} rules, most: {top}"
        if not rules:
            clean += 1
    if read_ok != "yes":
        failed.append(f"{name}: not read")
    elif errors is not None:
        failed.append(f"{name}: does not compile")
        notes.append(f"{name}: {errors.splitlines()[0]}")
    mock = read(name, "mock-timeout") or mock_result(read(name, "mock.log"))
    version = document.get("openapi", "?")
    size = os.path.getsize(path)
    size_text = f"{size / 1024:.0f} KB" if size >= 1024 else f"{size} B"
    ops = f"{operations}" + (f" + {hooks} webhooks" if hooks else "")
    rows.append(f"| `{os.path.basename(path)}` | {version} | {size_text} | {ops} | {read_ok} | {generated} | "
                f"{compiled} | {trip} | {mock} |")

lines = ["| document | OpenAPI | size | operations | read | functions | compiled | round trip: breaking | "
         "mock: schemathesis; openapi-core |",
         "| --- | --- | --- | --- | --- | --- | --- | --- | --- |", *rows]
share = clean / len(names) if names else 1
lines.append("")
lines.append(f"{len(names)} documents: {len(names) - len([f for f in failed if 'not read' in f])} read, "
             f"{len(names) - len(failed)} read and compiled, {clean} round-trip with no breaking change "
             f"({share:.0%}).")
print("\n".join(lines))
for note in notes:
    print(f"corpus-check: {note}")
if table_file:
    open(table_file, "w").write("\n".join(lines) + "\n")
if failed or share < floor:
    for failure in failed:
        print(f"corpus-check: {failure}")
    if share < floor:
        print(f"corpus-check: {share:.0%} of the documents round-trip clean, below {floor:.0%}")
    sys.exit(1)
PY
