#!/usr/bin/env python3
"""Counts the types, files and modules of the library that one call passes through.

Starts the bundled mock server (`courier mock`, the social backend) on a free loopback port, runs
`courier call posts.page` once against it under valgrind's callgrind (every function executed, with
its source file from the debug information), and keeps the functions defined in the library
modules, not in the command-line tool, the demo's endpoints or the mock server. A function's type
is the first nominal type in its demangled name (`Courier.NetworkManager.send…` is NetworkManager);
free functions count for their file only. What the tool does before the call (reading arguments,
the configuration) is the tool's and is not counted; what the library does to make the manager, the
transport and the request, send it and decode the answer is.

Usage: scripts/send-path.py [--courier .build/debug/courier] [--transport curl|urlsession] [--list]
(after `swift build --product courier`; needs valgrind)
"""
import argparse, collections, os, re, signal, socket, subprocess, sys, tempfile, time

# The library, as a user's program links it; the rest (CLI, demo endpoints, mock server) is left out.
EXCLUDED_DIRS = ("Sources/CourierCLI/", "Sources/CourierTool/", "Endpoints/", "MockServer/", "Sources/CCurlBench/")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def library_file(path, root):
    if not path.startswith(root + "/"):
        return None
    relative = path[len(root) + 1:]
    if not (relative.startswith("Sources/") or relative.startswith("Endpoints/") or relative.startswith("MockServer/")):
        return None
    if relative.startswith(EXCLUDED_DIRS):
        return None
    return relative


def demangle(names):
    if not names:
        return {}
    result = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(names),
                            capture_output=True, text=True, check=True)
    return dict(zip(names, result.stdout.splitlines()))


def type_of(demangled, module):
    """The first of the module's nominal types named in a demangled name ("closure #1 in
    Courier.NetworkManager.send(…)" is Courier.NetworkManager), or None for a free function."""
    match = re.search(r"(?<![\w.])" + re.escape(module) + r"\.([A-Z]\w*)", demangled)
    return f"{module}.{match.group(1)}" if match else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--courier", default=".build/debug/courier")
    parser.add_argument("--transport", default="curl")
    parser.add_argument("--list", action="store_true", help="list the types and files")
    args = parser.parse_args()
    root = os.getcwd()
    port = free_port()
    mock = subprocess.Popen([args.courier, "mock", "--port", str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        else:
            sys.exit("send-path: the mock server did not start")
        out = tempfile.mktemp(prefix="send-path.", suffix=".callgrind")
        call = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", args.courier, "call", "posts.page",
                "--pageNumber", "1", "--size", "2", "--base-url", f"http://127.0.0.1:{port}",
                "--transport", args.transport]
        result = subprocess.run(call, capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"send-path: the call failed ({result.returncode}):\n{result.stderr[-2000:]}")
    finally:
        mock.send_signal(signal.SIGTERM)
        mock.wait(timeout=30)
    files_by_id, fns = {}, collections.defaultdict(set)  # mangled name -> files
    current_file = None
    with open(out) as data:
        for line in data:
            if line.startswith(("fl=", "fi=", "fe=")):
                match = re.match(r"f[lie]=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if match:
                    if match.group(2) is not None:
                        files_by_id[match.group(1)] = match.group(2)
                    current_file = files_by_id.get(match.group(1))
            elif line.startswith("fn="):
                match = re.match(r"fn=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if match and match.group(2) and current_file:
                    fns[match.group(2)].add(current_file)
    os.unlink(out)
    files, modules, symbols = set(), set(), {}
    for name, paths in fns.items():
        for path in paths:
            relative = library_file(path, root)
            if relative is None:
                continue
            files.add(relative)
            module = relative.split("/")[1] if relative.startswith("Sources/") else relative.split("/")[0]
            modules.add(module)
            symbols[name] = module
    types = set()
    for name, text in demangle(sorted(symbols)).items():
        kind = type_of(text, symbols[name])
        if kind:
            types.add(kind)
    print(f"one call (courier call posts.page over {args.transport}): {len(types)} types in {len(files)} files "
          f"in {len(modules)} modules of the library")
    if args.list:
        print("modules: " + ", ".join(sorted(modules)))
        print("types: " + ", ".join(sorted(types)))
        print("files:\n  " + "\n  ".join(sorted(files)))


if __name__ == "__main__":
    main()
