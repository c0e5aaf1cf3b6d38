#!/usr/bin/env python3
"""Counts the library's types, files and modules that one call passes through.

Starts the bundled mock server (`courier mock`) on a free loopback port and runs `courier call
posts.page` once against it under gdb, with a one-shot breakpoint on every function of the library
modules (Courier, CourierContract, CourierCurl, CourierPrimitives, CourierJSON, CourierCookies); the
functions hit are the ones the call ran. valgrind would be the usual tool, but Debian 12's 3.19
crashes on the courier binary at start-up. A function's source file comes from `addr2line`; its
type is the first of its module's nominal types in its demangled name ("closure #1 in
Courier.NetworkManager.send(…)" counts for NetworkManager); free functions count for their file.
The tool's own work (arguments, configuration, printing) is in CourierCLI, CourierTool and
CourierConfiguration, which are not counted; what the library does to make the manager, the
transport and the request, send it and decode the answer is.

Usage: scripts/send-path.py [--courier .build/debug/courier] [--transport curl|urlsession] [--list]
(after `swift build --product courier`, a debug build; needs gdb and binutils)
"""
import argparse, os, re, signal, socket, subprocess, sys, tempfile, textwrap, time

MODULES = ["Courier", "CourierContract", "CourierCurl", "CourierPrimitives", "CourierJSON", "CourierCookies"]

GDB_SCRIPT = textwrap.dedent("""
    import gdb, os
    entries = [line.split() for line in open(os.environ["TRACE_SYMBOLS"]) if line.strip()]
    hit = set()
    class Probe(gdb.Breakpoint):
        def __init__(self, spec, name):
            super().__init__(spec, internal=True)
            self.symbol = name
        def stop(self):
            hit.add(self.symbol)
            self.enabled = False
            return False
    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    gdb.execute("starti")
    exe = os.path.realpath(os.environ["TRACE_EXE"])
    base = next(int(cols[0], 16) for cols in
                (line.split() for line in gdb.execute("info proc mappings", to_string=True).splitlines())
                if cols and cols[-1] == exe)
    for address, name in entries:
        Probe("*0x%x" % (base + int(address, 16)), name)
    def done(event):
        with open(os.environ["TRACE_OUT"], "w") as out:
            out.write("\\n".join(sorted(hit)))
    gdb.events.exited.connect(done)
    gdb.execute("continue")
""")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def library_functions(binary):
    """(offset, mangled name) of every function defined in the library modules."""
    prefix = re.compile(r"^\$s(?:" + "|".join(f"{len(m)}{m}" for m in MODULES) + r")(?![a-zA-Z])")
    listing = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    found = []
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in ("t", "T") and prefix.match(parts[2]):
            found.append((parts[0], parts[2]))
    return found


def module_of(mangled):
    for module in MODULES:
        if mangled.startswith(f"$s{len(module)}{module}"):
            return module
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--courier", default=".build/debug/courier")
    parser.add_argument("--transport", default="curl")
    parser.add_argument("--list", action="store_true", help="list the types and files")
    args = parser.parse_args()
    binary = os.path.realpath(args.courier)
    functions = library_functions(binary)
    work = tempfile.mkdtemp(prefix="send-path.")
    symbols, script, hits = (os.path.join(work, name) for name in ("symbols", "trace.py", "hits"))
    with open(symbols, "w") as out:
        out.write("\n".join(f"{address} {name}" for address, name in functions))
    with open(script, "w") as out:
        out.write(GDB_SCRIPT)
    port = free_port()
    mock = subprocess.Popen([binary, "mock", "--port", str(port), "--seed-data", "5"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.time() > deadline:
                    sys.exit("send-path: the mock server did not start")
                time.sleep(0.2)
        environment = dict(os.environ, TRACE_EXE=binary, TRACE_SYMBOLS=symbols, TRACE_OUT=hits)
        call = ["gdb", "-q", "-batch", "-iex", "set debuginfod enabled off", "-x", script, "--args", binary, "call",
                "posts.page", "--pageNumber", "1", "--size", "2", "--base-url", f"http://127.0.0.1:{port}",
                "--transport", args.transport]
        result = subprocess.run(call, capture_output=True, text=True, env=environment, timeout=900)
        if not os.path.exists(hits) or '"pageNumber"' not in result.stdout:
            sys.exit(f"send-path: the call did not complete under gdb:\n{result.stdout[-1500:]}{result.stderr[-1500:]}")
    finally:
        mock.send_signal(signal.SIGTERM)
        mock.wait(timeout=30)
    hit = [line for line in open(hits).read().splitlines() if line]
    offsets = dict((name, address) for address, name in functions)
    located = subprocess.run(["addr2line", "-e", binary] + [hex(int(offsets[name], 16)) for name in hit],
                             capture_output=True, text=True, check=True).stdout.splitlines()
    demangled = subprocess.run(["swift", "demangle", "--compact"], input="\n".join(hit),
                               capture_output=True, text=True, check=True).stdout.splitlines()
    root = os.getcwd() + "/"
    files, modules, types, kept = set(), set(), set(), 0
    for location, readable in zip(located, demangled):
        path = location.rsplit(":", 1)[0]
        path = path[len(root):] if path.startswith(root) else path
        # The file decides the module: an extension of Courier's NetworkManager written in
        # CourierConfiguration is mangled under Courier, but it is the configuration's code.
        module = next((m for m in MODULES if path.startswith(f"Sources/{m}/")), None)
        if module is None:
            continue
        kept += 1
        files.add(path)
        modules.add(module)
        match = re.search(r"(?<![\w.])(" + "|".join(MODULES) + r")\.([A-Z]\w*)", readable)
        if match:
            types.add(f"{match.group(1)}.{match.group(2)}")
    print(f"one call (courier call posts.page over {args.transport}): {kept} functions of {len(types)} types "
          f"in {len(files)} files in {len(modules)} modules of the library")
    if args.list:
        print("modules: " + ", ".join(sorted(modules)))
        print("types: " + ", ".join(sorted(types)))
        print("files:\n  " + "\n  ".join(sorted(files)))


if __name__ == "__main__":
    main()
