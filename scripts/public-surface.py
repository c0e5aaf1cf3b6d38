#!/usr/bin/env python3
"""Counts the public declarations of each library module, and of a first program's scope.

Extracts each module's symbol graph (public and open only) from the built modules and counts its
symbols, members included (not the ones a protocol's default implementations lend); a module's extensions of other modules' types count for it. A first
program imports Courier, CourierContract and one transport; its scope is those modules and what
they re-export. Usage: scripts/public-surface.py [--build-dir .build/debug]   (after `swift build`)
"""
import argparse, glob, json, os, subprocess, sys, tempfile

LIBRARIES = ["CourierPrimitives", "CourierJSON", "CourierCookies", "Courier", "CourierContract", "CourierContractModel",
             "CourierConfiguration", "CourierEvents", "CourierCache", "CourierInterceptors", "CourierURLSession",
             "CourierCurl", "CourierTransportKit", "MockServer", "MockServerContract", "CourierSchema", "CourierOpenAPI",
             "MockServerOpenAPI",
             "CourierPact", "MockServerPact", "CourierTesting"]
FIRST_PROGRAM = ["Courier", "CourierContract", "CourierCurl"]
REEXPORTS = {"CourierContractModel": ["CourierPrimitives"], "CourierTesting": ["Courier", "MockServer", "MockServerContract"]}


def symbols(module, build, triple, root):
    out = tempfile.mkdtemp()
    result = subprocess.run(
        ["swift-symbolgraph-extract", "-module-name", module, "-target", triple, "-I", f"{build}/Modules",
         "-I", f"{build}/CCurlShim.build", "-I", f"{root}/Sources/CCurlShim/include", "-I", f"{root}/Sources/CCurl",
         "-minimum-access-level", "public", "-output-dir", out], capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(f"{module}: swift-symbolgraph-extract failed\n{result.stderr[-2000:]}\n")
        return None
    found = set()
    for path in glob.glob(os.path.join(out, f"{module}*.symbols.json")):
        for symbol in json.load(open(path))["symbols"]:
            # Members a protocol's extension lends a type (`!=` for Equatable…) are not declared here.
            if "::SYNTHESIZED::" not in symbol["identifier"]["precise"]:
                found.add(symbol["identifier"]["precise"])
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", default=".build/debug")
    args = parser.parse_args()
    root = os.getcwd()
    info = json.loads(subprocess.run(["swift", "-print-target-info"], capture_output=True, text=True).stdout)
    triple = info["target"]["triple"]
    per_module, failed = {}, []
    for module in LIBRARIES:
        found = symbols(module, args.build_dir, triple, root)
        if found is None:
            failed.append(module)
            continue
        per_module[module] = found
        print(f"{module}: {len(found)}")
    scope = set()
    for module in FIRST_PROGRAM:
        for name in [module] + REEXPORTS.get(module, []):
            scope |= per_module.get(name, set())
    print(f"first program ({', '.join(FIRST_PROGRAM)} and what they re-export): {len(scope)}")
    if failed:
        sys.stderr.write(f"not counted (extraction failed): {', '.join(failed)}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
