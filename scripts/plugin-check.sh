#!/usr/bin/env bash
# Checks Courier's OpenAPI package plugins as a user meets them: a fresh package in a scratch folder,
# depending on this checkout by path, with
#   - target PetsAPI: openapi.yaml + courier-openapi.json ({"access": "public"}) and the build tool plugin
#     CourierOpenAPIPlugin, so `swift build` generates its declarations;
#   - target StoreAPI: openapi.json + courier-openapi.json ({"access": "internal"}), no plugin: the command
#     plugin (`swift package generate-courier-openapi --target StoreAPI`) writes StoreAPI+OpenAPI.swift into
#     its folder, and a hand-written public function there uses the internal declarations;
#   - executable pets-check, which builds requests with both generated APIs and prints them.
# It fails when the build before the command plugin ran does not fail (StoreAPI's code is not there yet),
# when either build fails, when the written file is missing, when pets-check prints other requests, or
# when a settings file with an unknown key does not fail the build with the key's name.
# Usage: scripts/plugin-check.sh   (env: KEEP=1 keeps the scratch folder and prints its path)
set -euo pipefail

cd "$(dirname "$0")/.."
REPO="$(pwd)"
# A path dependency's identity is its folder's name, lowercased.
IDENTITY="$(basename "$REPO" | tr '[:upper:]' '[:lower:]')"
mkdir -p .build
WORK="$(realpath "$(mktemp -d .build/plugin-check.XXXXXX)")"
cleanup() { if [[ "${KEEP:-0}" == 1 ]]; then echo "kept $WORK"; else rm -rf "$WORK"; fi; }
trap cleanup EXIT
PACKAGE="$WORK/PetsApp"
mkdir -p "$PACKAGE/Sources/PetsAPI" "$PACKAGE/Sources/StoreAPI" "$PACKAGE/Sources/pets-check"

cat > "$PACKAGE/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription

let courier: [Target.Dependency] = [
    .product(name: "Courier", package: "$IDENTITY"),
    .product(name: "CourierContract", package: "$IDENTITY"),
    .product(name: "CourierContractModel", package: "$IDENTITY"),
]

let package = Package(
    name: "PetsApp",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(path: "$REPO")],
    targets: [
        .target(
            name: "PetsAPI", dependencies: courier,
            plugins: [.plugin(name: "CourierOpenAPIPlugin", package: "$IDENTITY")]),
        .target(name: "StoreAPI", dependencies: courier, exclude: ["openapi.json", "courier-openapi.json"]),
        .executableTarget(name: "pets-check", dependencies: ["PetsAPI", "StoreAPI"] + courier),
    ],
    swiftLanguageModes: [.v6]
)
EOF
cp Tests/Fixtures/OpenAPI/petstore-3.0.yaml "$PACKAGE/Sources/PetsAPI/openapi.yaml"
echo '{"access": "public"}' > "$PACKAGE/Sources/PetsAPI/courier-openapi.json"
# The JSON form of a document, for the command plugin.
"$REPO/.build/contract-venv/bin/python" -c 'import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), open(sys.argv[2], "w"), indent=2)' \
    Tests/Fixtures/OpenAPI/uspto.yaml "$PACKAGE/Sources/StoreAPI/openapi.json" 2>/dev/null \
    || python3 -c 'import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), open(sys.argv[2], "w"), indent=2)' \
        Tests/Fixtures/OpenAPI/uspto.yaml "$PACKAGE/Sources/StoreAPI/openapi.json"
echo '{"access": "internal"}' > "$PACKAGE/Sources/StoreAPI/courier-openapi.json"
cat > "$PACKAGE/Sources/PetsAPI/Pets.swift" <<'EOF'
import CourierContract

/// The first page of pets, from the declarations generated at build time.
public func firstPage() -> Endpoint<Pets> { PetsAPI.listPets(limit: 20) }
EOF
cat > "$PACKAGE/Sources/StoreAPI/Store.swift" <<'EOF'
import Courier
import CourierContract

/// The data sets request, made with the module's internal generated declarations.
public func dataSetsRequest() throws -> TransportRequest {
    try MetadataAPI.listDataSets().makeRequest(baseURL: USPTODataSetAPIDocument.baseURL())
}
EOF
cat > "$PACKAGE/Sources/pets-check/main.swift" <<'EOF'
import Courier
import CourierContract
import Foundation
import PetsAPI
import StoreAPI

func line(_ request: TransportRequest) -> String { "\(request.method.rawValue) \(request.url.absoluteString)" }

print(line(try PetsAPI.showPetById(petId: "7").makeRequest(baseURL: SwaggerPetstoreDocument.baseURL())))
print(line(try PetsAPI.listPets(limit: 5).makeRequest(baseURL: URL(string: "http://localhost:8080"))))
let created = Pet(id: 1, name: "Rex", tag: nil)
print("\(SwaggerPetstoreDocument.operations.count) operations, a Pet named \(created.name)")
print(line(try firstPage().makeRequest(baseURL: URL(string: "http://localhost:8080"))))
print(line(try dataSetsRequest()))
EOF

cd "$PACKAGE"
echo "== swift build before the command plugin (StoreAPI's declarations are not written yet: must fail)"
if swift build > "$WORK/first.log" 2>&1; then
    cat "$WORK/first.log"
    echo "plugin-check: the build passed without StoreAPI's declarations" >&2
    exit 1
fi
grep -q "cannot find 'MetadataAPI' in scope" "$WORK/first.log" || { tail -n 40 "$WORK/first.log"; exit 1; }
grep -E "Generating PetsAPI's declarations" "$WORK/first.log" | head -n 1 \
    || { tail -n 40 "$WORK/first.log"; echo "plugin-check: the build tool plugin did not run" >&2; exit 1; }

echo "== swift package generate-courier-openapi --target StoreAPI"
swift package --allow-writing-to-package-directory generate-courier-openapi --target StoreAPI
test -s Sources/StoreAPI/StoreAPI+OpenAPI.swift
grep -q "enum MetadataAPI: API" Sources/StoreAPI/StoreAPI+OpenAPI.swift

echo "== swift build"
swift build > "$WORK/second.log" 2>&1 || { tail -n 60 "$WORK/second.log"; exit 1; }
echo "== pets-check"
output="$(swift run --skip-build pets-check)"
echo "$output"
expected="GET http://petstore.swagger.io/v1/pets/7
GET http://localhost:8080/pets?limit=5
3 operations, a Pet named Rex
GET http://localhost:8080/pets?limit=20
GET https://developer.uspto.gov/ds-api"
if [[ "$output" != "$expected" ]]; then
    diff <(echo "$expected") <(echo "$output") || true
    echo "plugin-check: pets-check printed other requests" >&2
    exit 1
fi
echo "== a courier-openapi.json with an unknown key fails the build, naming it"
echo '{"acess": "public"}' > Sources/PetsAPI/courier-openapi.json
if swift build > "$WORK/third.log" 2>&1; then
    echo "plugin-check: the build passed with an unknown settings key" >&2
    exit 1
fi
grep -F 'unknown key "acess"; the keys are access' "$WORK/third.log" \
    || { tail -n 40 "$WORK/third.log"; echo "plugin-check: the failure does not name the key" >&2; exit 1; }
echo "== plugin check passed"
