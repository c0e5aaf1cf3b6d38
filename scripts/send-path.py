#!/usr/bin/env python3
"""Counts the library's types, files and modules that one call passes through.

Starts the bundled mock server (`courier mock`) on a free loopback port and runs `courier call
posts.page` once against it under gdb, with a one-shot breakpoint on every function of the library
modules (Courier, CourierContract, CourierContractModel, CourierSchema, CourierCurl, CourierPrimitives, CourierJSON,
CourierCookies); the functions hit are the ones the call ran. valgrind would be the usual tool, but Debian 12's 3.19
crashes on the courier binary at start-up. A function's source file comes from `addr2line`; its
type is the first of its module's nominal types in its demangled name ("closure #1 in
Courier.NetworkManager.send(…)" counts for NetworkManager); free functions count for their file.
The tool's own work (arguments, configuration, printing) is in CourierCLI, CourierTool and
CourierConfiguration, which are not counted; what the library does to make the manager, the
transport and the request, send it and decode the answer is.

With --warm it counts one send on a manager that is already running instead: `courier bench run`
sends the typed workload (`Endpoint<T>`, decoded) 1 and then 3 times against `courier mock` serving the
benchmark fixtures, every library function's hits are counted, and a function is on the path of one
send when its count grows with the number of sends. Making the manager and the transport, the first
connection and the tool's start-up then drop out: what is left is what each further `send` runs.

Usage: scripts/send-path.py [--courier .build/debug/courier] [--transport curl|urlsession] [--warm] [--list]
(after `swift build --product courier`, a debug build; needs gdb and binutils)
"""
import argparse, os, re, signal, socket, subprocess, sys, tempfile, textwrap, time

MODULES = ["Courier", "CourierContract", "CourierContractModel", "CourierSchema", "CourierCurl", "CourierPrimitives",
           "CourierJSON", "CourierCookies"]

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
    class Counter(gdb.Breakpoint):
        def __init__(self, spec, name):
            super().__init__(spec, internal=True)
            self.symbol = name
        def stop(self):
            counts[self.symbol] = counts.get(self.symbol, 0) + 1
            return False
    counts = {}
    counting = os.environ.get("TRACE_COUNT") == "1"
    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    gdb.execute("starti")
    exe = os.path.realpath(os.environ["TRACE_EXE"])
    base = next(int(cols[0], 16) for cols in
                (line.split() for line in gdb.execute("info proc mappings", to_string=True).splitlines())
                if cols and cols[-1] == exe)
    for address, name in entries:
        (Counter if counting else Probe)("*0x%x" % (base + int(address, 16)), name)
    def done(event):
        with open(os.environ["TRACE_OUT"], "w") as out:
            if counting:
                out.write("\\n".join(f"{name} {count}" for name, count in sorted(counts.items())))
            else:
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


def wait_for(port):
    deadline = time.time() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.time() > deadline:
                sys.exit("send-path: the mock server did not start")
            time.sleep(0.2)


def traced(binary, script, symbols, work, arguments, expect, count=False):
    """Runs `binary arguments` under gdb; the functions hit (with their counts when `count`)."""
    hits = os.path.join(work, "hits")
    if os.path.exists(hits):
        os.remove(hits)
    environment = dict(os.environ, TRACE_EXE=binary, TRACE_SYMBOLS=symbols, TRACE_OUT=hits,
                       TRACE_COUNT="1" if count else "0")
    call = ["gdb", "-q", "-batch", "-iex", "set debuginfod enabled off", "-x", script, "--args", binary] + arguments
    result = subprocess.run(call, capture_output=True, text=True, env=environment, timeout=1800)
    if not os.path.exists(hits) or expect not in result.stdout:
        sys.exit(f"send-path: the call did not complete under gdb:\n{result.stdout[-1500:]}{result.stderr[-1500:]}")
    lines = [line for line in open(hits).read().splitlines() if line]
    if not count:
        return {line: 1 for line in lines}
    return {name: int(number) for name, number in (line.rsplit(" ", 1) for line in lines)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--courier", default=".build/debug/courier")
    parser.add_argument("--transport", default="curl")
    parser.add_argument("--warm", action="store_true", help="one further typed send on a running manager")
    parser.add_argument("--list", action="store_true", help="list the types and files")
    args = parser.parse_args()
    binary = os.path.realpath(args.courier)
    functions = library_functions(binary)
    work = tempfile.mkdtemp(prefix="send-path.")
    symbols, script = (os.path.join(work, name) for name in ("symbols", "trace.py"))
    with open(symbols, "w") as out:
        out.write("\n".join(f"{address} {name}" for address, name in functions))
    with open(script, "w") as out:
        out.write(GDB_SCRIPT)
    port = free_port()
    if args.warm:
        fixtures = os.path.join(work, "fixtures")
        subprocess.run([binary, "bench", "fixtures", fixtures, "--big-mib", "1"], check=True,
                       stdout=subprocess.DEVNULL)
        serve = [binary, "mock", "--port", str(port), "--mappings", os.path.join(fixtures, "mappings"), "--no-backend"]
    else:
        serve = [binary, "mock", "--port", str(port), "--seed-data", "5"]
    mock = subprocess.Popen(serve, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(port)
        if args.warm:
            client = "urlsession" if args.transport == "urlsession" else "curl"
            def sends(count):
                return traced(binary, script, symbols, work,
                              ["bench", "run", "--client", client, "--workload", "small-typed", "--url",
                               f"http://127.0.0.1:{port}/small.json", "--requests", str(count)],
                              '"requests"', count=True)
            once, thrice = sends(1), sends(3)
            # A function on the path of every send runs at least once more for each further one.
            hit = sorted(name for name, number in thrice.items() if number > once.get(name, 0))
            label = f"one further typed send (Endpoint<T>, decoded) over {args.transport}"
        else:
            hit = sorted(traced(binary, script, symbols, work,
                                ["call", "posts.page", "--pageNumber", "1", "--size", "2", "--base-url",
                                 f"http://127.0.0.1:{port}", "--transport", args.transport], '"pageNumber"'))
            label = f"one call (courier call posts.page over {args.transport})"
    finally:
        mock.send_signal(signal.SIGTERM)
        mock.wait(timeout=30)
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
    print(f"{label}: {kept} functions of {len(types)} types in {len(files)} files in {len(modules)} modules "
          f"of the library")
    if args.list:
        print("modules: " + ", ".join(sorted(modules)))
        print("types: " + ", ".join(sorted(types)))
        print("files:\n  " + "\n  ".join(sorted(files)))


if __name__ == "__main__":
    main()
