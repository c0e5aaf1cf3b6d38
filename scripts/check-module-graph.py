#!/usr/bin/env python3
"""Checks the package's module graph against the arrows Courier's design allows.

Reads `swift package dump-package` and fails, naming the arrow, when a target depends (directly for the
allow-lists, transitively for the deny-lists) on what it must not, or when a library product ships a
module that only the package itself uses. Arrows follow need down to the C shims too: a function
CCurlShim declares that no Swift source calls is reported, and so is a comment in the sources that
cites an upstream issue or pull request (history, which belongs in commit messages). Run by .ci/run and
`make test`.
Usage: scripts/check-module-graph.py [--self-test]
"""
import glob, json, os, re, subprocess, sys

# Direct dependencies each library may have (anything else is a wrong arrow).
ALLOWED = {
    "CourierPrimitives": set(),
    "CourierJSON": set(),
    "CourierCookies": {"CourierPrimitives"},
    "Courier": {"CourierPrimitives", "CourierCookies", "CourierJSON"},
    # JSON Schema validation and value generation: one engine for declarations and documents, JSON values only.
    "CourierSchema": {"CourierPrimitives"},
    # Operations, schemas and the OpenAPI writer: what tools read from a declaration; its schemas are
    # checked and exemplified by the one schema engine.
    "CourierContractModel": {"Courier", "CourierPrimitives", "CourierSchema"},
    "CourierContract": {"Courier", "CourierPrimitives", "CourierContractModel"},
    "CourierInterceptors": {"Courier", "CourierPrimitives"},
    "CourierCache": {"Courier", "CourierPrimitives"},
    "CourierEvents": {"Courier", "CourierPrimitives"},
    "CourierURLSession": {"Courier", "CourierPrimitives"},
    "CourierCurl": {"Courier", "CourierPrimitives", "CCurlShim"},
    # What only a transport written outside the package needs: nothing but the core.
    "CourierTransportKit": {"Courier", "CourierPrimitives"},
    "CourierConfiguration": {"Courier", "CourierPrimitives", "CourierCookies", "CourierInterceptors",
                             "CourierJSON"},
    # The mock server's HTTP layer, stubs, admin API and chaos need nothing of Courier's.
    "MockServer": {"CourierPrimitives"},
    # A declared API served from its own OpenAPI document by the document's mock: one engine for both.
    "MockServerContract": {"MockServer", "Courier", "CourierContract", "CourierContractModel", "CourierPrimitives",
                           "CourierOpenAPI", "MockServerOpenAPI"},
    # Reading OpenAPI documents needs JSON values (YAML is read in Swift), nothing of the client or server.
    "CourierOpenAPI": {"CourierPrimitives", "CourierSchema"},
    # An OpenAPI document served: the server and the reading, nothing of the client.
    "MockServerOpenAPI": {"MockServer", "CourierOpenAPI", "CourierPrimitives"},
    # Pact files, matching and verification: the declaration's schemas and the Transport protocol, no server.
    "CourierPact": {"CourierPrimitives", "Courier", "CourierContract", "CourierContractModel"},
    "MockServerPact": {"MockServer", "Courier", "CourierContract", "CourierContractModel", "CourierPact",
                       "CourierPrimitives"},
    # A command-line tool for any declared API: both transports, the configuration, the mock server, and
    # Pact (the mock's --pact-out records through MockServerPact; verify --pact replays with CourierPact).
    "CourierTool": {"Courier", "CourierConfiguration", "CourierContract", "CourierContractModel", "CourierCookies", "CourierCurl",
                    "CourierJSON", "CourierPrimitives", "CourierURLSession", "MockServer", "MockServerContract",
                    "CourierOpenAPI", "MockServerOpenAPI", "CourierPact", "MockServerPact"},
}

# What a library must never reach, even through another module.
DENIED = {
    "CourierTesting": {"CourierCurl", "CCurl", "CCurlShim", "CourierURLSession", "Endpoints", "SocialBackend",
                       "CourierCLI"},
    "CourierConfiguration": {"CourierCurl", "CCurl", "CourierURLSession"},
    "MockServer": {"Courier", "CourierContract", "Endpoints", "SocialBackend", "CourierCurl"},
    "MockServerContract": {"Endpoints", "SocialBackend", "CourierCurl", "CCurl"},
    "CourierOpenAPI": {"Courier", "MockServer", "CourierContract", "CourierCurl", "CCurl"},
    # The schema engine serves the client's argument checks, documents and the mock: it reaches none of them.
    "CourierSchema": {"Courier", "CourierContract", "CourierContractModel", "CourierOpenAPI", "MockServer",
                      "CourierCurl", "CCurl"},
    "MockServerOpenAPI": {"Courier", "CourierContract", "Endpoints", "SocialBackend", "CourierCurl", "CCurl"},
    "CourierPact": {"MockServer", "CourierCurl", "CCurl", "CourierURLSession", "Endpoints", "SocialBackend"},
    "MockServerPact": {"CourierCurl", "CCurl", "CourierURLSession", "Endpoints", "SocialBackend"},
    "CourierCurl": {"CourierURLSession", "CourierConfiguration"},
    "CourierURLSession": {"CourierCurl", "CCurl", "CourierConfiguration"},
    "Courier": {"CourierCurl", "CourierURLSession", "CourierContract", "CourierContractModel", "MockServer",
                "Endpoints"},
    # A user's tool gets their API, not the demo's.
    "CourierTool": {"Endpoints", "SocialBackend", "CourierCLI"},
}

# Modules no library product may contain: the demo's API and backend serve the `courier` tool and the
# package's own tests; a user's program has no use for them.
NOT_SHIPPED = {"Endpoints", "SocialBackend"}

# The C shim's header, and where its callers live.
SHIM_HEADER = "Sources/CCurlShim/include/CCurlShim.h"
SWIFT_ROOTS = ["Sources", "MockServer", "Endpoints", "Tests"]
COMMENT_ROOTS = ["Sources", "MockServer", "Endpoints"]
# A comment citing an upstream issue or pull request by number.
HISTORY = re.compile(r"//.*\b(?:issue|PR|pull request) #?[0-9]+")


def shim_functions(header_text):
    """The functions a C header declares (`ccurl_…(`), in order."""
    names = []
    for name in re.findall(r"\b(ccurl_\w+)\s*\(", header_text):
        if name not in names:
            names.append(name)
    return names


def uncalled(functions, swift_texts):
    """The functions no Swift text names."""
    return [name for name in functions if not any(re.search(rf"\b{name}\b", text) for text in swift_texts)]


def history_comments(files):
    """`path:line: text` for each comment citing an issue or pull request; files is {path: text}."""
    found = []
    for path, text in sorted(files.items()):
        for number, line in enumerate(text.splitlines(), 1):
            if HISTORY.search(line):
                found.append(f"{path}:{number}: {line.strip()}")
    return found


def swift_files(roots):
    paths = []
    for root in roots:
        paths += glob.glob(os.path.join(root, "**", "*.swift"), recursive=True)
    return {path: open(path, encoding="utf-8").read() for path in sorted(paths)}


def source_problems():
    found = []
    with open(SHIM_HEADER, encoding="utf-8") as header:
        functions = shim_functions(header.read())
    for name in uncalled(functions, list(swift_files(SWIFT_ROOTS).values())):
        found.append(f"CCurlShim declares {name}, which no Swift source calls")
    for line in history_comments(swift_files(COMMENT_ROOTS)):
        found.append(f"a comment recounts history (cite it in the commit message): {line}")
    return found


# What an iOS app or its tests link: these and everything they reach build with the toolchain alone, so
# none may reach a system-library target (a C library from the system's packages, such as CCurl).
APP_LINKED = ["Courier", "CourierContract", "CourierURLSession", "CourierTesting"]


def graph_of(package):
    """({target: set of targets it depends on directly}, names of system-library targets) from dump-package."""
    graph, system = {}, set()
    for target in package["targets"]:
        if target.get("type") == "system":
            system.add(target["name"])
        deps = set()
        for dependency in target.get("dependencies", []):
            for kind in ("byName", "target", "product"):
                if kind in dependency:
                    deps.add(dependency[kind][0])
        graph[target["name"]] = deps
    return graph, system


def reach(graph, start):
    seen, stack = set(), list(graph.get(start, ()))
    while stack:
        name = stack.pop()
        if name not in seen:
            seen.add(name)
            stack.extend(graph.get(name, ()))
    return seen


def products_of(package):
    """{library product: set of its targets} from dump-package's JSON."""
    return {product["name"]: set(product["targets"]) for product in package.get("products", [])
            if "library" in product.get("type", {})}


def problems(graph, system, products=None, allowed_arrows=None):
    found = []
    for product, targets in sorted((products or {}).items()):
        for module in sorted(targets & NOT_SHIPPED):
            found.append(f"library product {product} ships {module}, which only the package itself uses")
    for target, allowed in (ALLOWED if allowed_arrows is None else allowed_arrows).items():
        if target not in graph:
            found.append(f"{target}: no such target")
            continue
        for extra in sorted(graph[target] - allowed):
            found.append(f"{target} -> {extra}: not an allowed arrow (allowed: {', '.join(sorted(allowed)) or 'none'})")
    for target, denied in DENIED.items():
        for bad in sorted(reach(graph, target) & denied):
            found.append(f"{target} reaches {bad}, which it must not")
    for target in APP_LINKED:
        for bad in sorted(reach(graph, target) & system):
            found.append(f"{target} reaches the system library {bad}; what an app links must build with the toolchain alone")
    return found


def self_test():
    good = {name: set(deps) for name, deps in ALLOWED.items()}
    good["CourierTesting"] = {"Courier", "MockServer", "MockServerContract", "MockServerOpenAPI"}
    good["CCurlShim"], good["CCurl"], good["CYAML"] = {"CCurl"}, set(), set()
    system = {"CCurl", "CYAML"}
    assert problems(good, system) == [], problems(good, system)
    bad = dict(good, MockServer={"CourierPrimitives", "Courier"})
    assert any("MockServer -> Courier" in p for p in problems(bad, system)), problems(bad, system)
    bad = dict(good, MockServerContract=good["MockServerContract"] | {"CourierCurl"})
    assert any("MockServerContract reaches CourierCurl" in p for p in problems(bad, system)), problems(bad, system)
    assert problems(good, system, {"Courier": {"Courier"}}) == []
    shipped = problems(good, system, {"Courier": {"Courier"}, "Endpoints": {"Endpoints"}})
    assert shipped == ["library product Endpoints ships Endpoints, which only the package itself uses"], shipped
    header = "int ccurl_used(void);\nvoid ccurl_unused(int *flag);\n/* ccurl_used(x) again */"
    assert shim_functions(header) == ["ccurl_used", "ccurl_unused"], shim_functions(header)
    assert uncalled(["ccurl_used", "ccurl_unused"], ["let x = ccurl_used()"]) == ["ccurl_unused"]
    assert uncalled(["ccurl_used"], ["ccurl_used_more()"]) == ["ccurl_used"]
    cited = {"A.swift": "let a = 1\n    /// resets the count (curl issue 5974, PR 19066).\n// PRs are fine\n"}
    assert history_comments(cited) == ["A.swift:2: /// resets the count (curl issue 5974, PR 19066)."], cited
    # The wrong arrow the system-library rule exists for: a YAML reader on libyaml under the OpenAPI mock
    # that CourierTesting links. The allow-list names it too, but the system-library rule must catch it alone.
    bad = dict(good, CourierOpenAPI={"CourierPrimitives", "CYAML"})
    found = problems(bad, system)
    assert "CourierTesting reaches the system library CYAML; what an app links must build with the toolchain alone" in found, found
    allowed_cyaml = dict(ALLOWED, CourierOpenAPI={"CourierPrimitives", "CYAML"})
    assert any("CourierTesting reaches the system library CYAML" in p for p in problems(bad, system, None, allowed_cyaml))
    for line in found:
        print(f"module graph: self-test: a wrong arrow fails: {line}")
    print("module graph: self-test passed")


def main():
    if "--self-test" in sys.argv:
        self_test()
        return 0
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    out = subprocess.run(["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout
    package = json.loads(out)
    graph, system = graph_of(package)
    found = problems(graph, system, products_of(package)) + source_problems()
    for problem in found:
        print(f"module graph: {problem}")
    if found:
        return 1
    print(f"module graph: {len(ALLOWED)} libraries' arrows and {len(DENIED)} exclusions hold; "
          f"no library product ships {', '.join(sorted(NOT_SHIPPED))}; every CCurlShim function is called; "
          f"{', '.join(APP_LINKED)} reach no system library")
    return 0


if __name__ == "__main__":
    sys.exit(main())
