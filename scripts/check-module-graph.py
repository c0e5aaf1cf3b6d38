#!/usr/bin/env python3
"""Checks the package's module graph against the arrows Courier's design allows.

Reads `swift package dump-package` and fails, naming the arrow, when a target depends (directly for the
allow-lists, transitively for the deny-lists) on what it must not. Run by .ci/run and `make test`.
Usage: scripts/check-module-graph.py [--self-test]
"""
import json, subprocess, sys

# Direct dependencies each library may have (anything else is a wrong arrow).
ALLOWED = {
    "CourierPrimitives": set(),
    "CourierJSON": set(),
    "CourierCookies": {"CourierPrimitives"},
    "Courier": {"CourierPrimitives", "CourierCookies", "CourierJSON"},
    "CourierContract": {"Courier", "CourierPrimitives"},
    "CourierInterceptors": {"Courier", "CourierPrimitives"},
    "CourierCache": {"Courier", "CourierPrimitives"},
    "CourierEvents": {"Courier", "CourierPrimitives"},
    "CourierURLSession": {"Courier", "CourierPrimitives"},
    "CourierCurl": {"Courier", "CourierPrimitives", "CCurlShim"},
    "CourierConfiguration": {"Courier", "CourierPrimitives", "CourierCookies", "CourierInterceptors",
                             "CourierJSON"},
    # The mock server's HTTP layer, stubs, admin API and chaos need nothing of Courier's.
    "MockServer": {"CourierPrimitives"},
    "MockServerContract": {"MockServer", "Courier", "CourierContract", "CourierPrimitives"},
    # Reading OpenAPI documents needs JSON values (YAML is read in Swift), nothing of the client or server.
    "CourierOpenAPI": {"CourierPrimitives"},
    # An OpenAPI document served: the server and the reading, nothing of the client.
    "MockServerOpenAPI": {"MockServer", "CourierOpenAPI", "CourierPrimitives"},
    # Pact files, matching and verification: the declaration's schemas and the Transport protocol, no server.
    "CourierPact": {"CourierPrimitives", "Courier", "CourierContract"},
    "MockServerPact": {"MockServer", "Courier", "CourierContract", "CourierPact", "CourierPrimitives"},
    # A command-line tool for any declared API: both transports, the configuration, the mock server, and
    # Pact (the mock's --pact-out records through MockServerPact; verify --pact replays with CourierPact).
    "CourierTool": {"Courier", "CourierConfiguration", "CourierContract", "CourierCookies", "CourierCurl",
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
    "MockServerOpenAPI": {"Courier", "CourierContract", "Endpoints", "SocialBackend", "CourierCurl", "CCurl"},
    "CourierPact": {"MockServer", "CourierCurl", "CCurl", "CourierURLSession", "Endpoints", "SocialBackend"},
    "MockServerPact": {"CourierCurl", "CCurl", "CourierURLSession", "Endpoints", "SocialBackend"},
    "CourierCurl": {"CourierURLSession", "CourierConfiguration"},
    "CourierURLSession": {"CourierCurl", "CCurl", "CourierConfiguration"},
    "Courier": {"CourierCurl", "CourierURLSession", "CourierContract", "MockServer", "Endpoints"},
    # A user's tool gets their API, not the demo's.
    "CourierTool": {"Endpoints", "SocialBackend", "CourierCLI"},
}


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


def problems(graph, system, allowed_arrows=None):
    found = []
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
    # The wrong arrow this rule exists for: a YAML reader on libyaml under the OpenAPI mock that
    # CourierTesting links. The allow-list names it too, but the system-library rule must catch it alone.
    bad = dict(good, CourierOpenAPI={"CourierPrimitives", "CYAML"})
    found = problems(bad, system)
    assert "CourierTesting reaches the system library CYAML; what an app links must build with the toolchain alone" in found, found
    allowed_cyaml = dict(ALLOWED, CourierOpenAPI={"CourierPrimitives", "CYAML"})
    assert any("CourierTesting reaches the system library CYAML" in p for p in problems(bad, system, allowed_cyaml))
    for line in found:
        print(f"module graph: self-test: a wrong arrow fails: {line}")
    print("module graph: self-test passed")


def main():
    if "--self-test" in sys.argv:
        self_test()
        return 0
    out = subprocess.run(["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout
    found = problems(*graph_of(json.loads(out)))
    for problem in found:
        print(f"module graph: {problem}")
    if found:
        return 1
    print(f"module graph: {len(ALLOWED)} libraries' arrows and {len(DENIED)} exclusions hold; "
          f"{', '.join(APP_LINKED)} reach no system library")
    return 0


if __name__ == "__main__":
    sys.exit(main())
