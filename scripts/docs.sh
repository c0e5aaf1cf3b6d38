#!/usr/bin/env bash
# Builds the DocC documentation of Courier, CourierJSON, CourierCookies, CourierURLSession,
# CourierInterceptors, CourierCache, CourierEvents, CourierContract, CourierContractModel,
# CourierConfiguration, CourierCurl, CourierSchema, CourierTransportKit,
# MockServer, MockServerContract, CourierPact, MockServerPact, CourierTool, CourierOpenAPI and
# MockServerOpenAPI with the toolchain's docc, from symbol graphs,
# warnings as errors.
# Output: .build/docs/<Module>.doccarchive
# Usage: scripts/docs.sh   (builds the modules first)
set -euo pipefail
cd "$(dirname "$0")/.."
for target in MockServer MockServerContract MockServerPact MockServerOpenAPI CourierCurl CourierEvents CourierPact \
  CourierTool CourierTransportKit; do swift build --target "$target" >/dev/null; done
triple="$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')"
modules=".build/debug/Modules"
out=".build/docs"
rm -rf "$out" && mkdir -p "$out"
for pair in Courier:Sources/Courier/Courier.docc CourierJSON:Sources/CourierJSON/CourierJSON.docc \
  CourierCookies:Sources/CourierCookies/CourierCookies.docc \
  CourierURLSession:Sources/CourierURLSession/CourierURLSession.docc \
  CourierInterceptors:Sources/CourierInterceptors/CourierInterceptors.docc \
  CourierCache:Sources/CourierCache/CourierCache.docc CourierEvents:Sources/CourierEvents/CourierEvents.docc \
  CourierContract:Sources/CourierContract/CourierContract.docc \
  CourierContractModel:Sources/CourierContractModel/CourierContractModel.docc \
  CourierConfiguration:Sources/CourierConfiguration/CourierConfiguration.docc \
  CourierSchema:Sources/CourierSchema/CourierSchema.docc \
  CourierCurl:Sources/CourierCurl/CourierCurl.docc MockServer:MockServer/MockServer.docc \
  CourierTransportKit:Sources/CourierTransportKit/CourierTransportKit.docc \
  MockServerContract:MockServer/Contract/MockServerContract.docc \
  CourierPact:Sources/CourierPact/CourierPact.docc MockServerPact:MockServer/Pact/MockServerPact.docc \
  CourierTool:Sources/CourierTool/CourierTool.docc CourierOpenAPI:Sources/CourierOpenAPI/CourierOpenAPI.docc \
  MockServerOpenAPI:MockServer/OpenAPI/MockServerOpenAPI.docc; do
  module="${pair%%:*}"
  catalog="${pair#*:}"
  graphs="$out/graphs-$module"
  mkdir -p "$graphs"
  swift-symbolgraph-extract -module-name "$module" -target "$triple" -I "$modules" -output-dir "$graphs" \
    -I .build/debug/CCurlShim.build -I Sources/CCurlShim/include -I Sources/CCurl \
    -minimum-access-level public
  docc convert "$catalog" --additional-symbol-graph-dir "$graphs" --output-path "$out/$module.doccarchive" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.courier.$module" --warnings-as-errors
  echo "docs: $module → $out/$module.doccarchive"
done
