#!/usr/bin/env python3
"""Sorts LeakSanitizer's report (read from the test log) into leaks Courier must fix and leaks it cannot.

    scripts/lsan-triage.py .build/asan/sanitizer-test.log

Run the tests with ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 so that every stack is whole
(libcurl has no frame pointers; without the slow unwinder a stack stops inside it). Each leak falls in
exactly one class:

  once-global   allocated while a Swift global or static was initialised (under swift_once). It is
                made once per process and stays referenced, but LeakSanitizer cannot follow the
                references: Swift keeps enum tags in a pointer's spare bits, so the stored word is not
                a plain address. Bounded by construction: it cannot grow with work done.
  third-party   no frame from this repository: FoundationNetworking's URLSession (one curl URL handle
                per request in CFURLSessionCurlHostIsEqual), XCTest's own runner.
  courier       anything else, so anything allocated by Courier's code outside a global's
                initialiser. These fail the run.

Exits 1 when there is a `courier` leak or when the log has no LeakSanitizer section at all while
leaks were expected to be checked (a run that crashed before exit). Prints a table either way.
"""
import re
import sys

MODULES = ["Courier", "CourierCurl", "Endpoints", "MockServer", "CourierCLI", "CourierTests", "CourierCurlTests",
           "TransportConformanceTests", "MockServerTests", "EndpointsTests", "ReliabilityTests", "CourierCLITests",
           "ReadmeExamplesTests"]
# A frame of this repository: a source path outside .build (SwiftPM's generated test runner lives there)
# or a symbol mangled in one of the package's modules (a mangled module name is its length, then the name).
OURS = re.compile(r"(?<![\w.])(?:Sources|Endpoints|MockServer|Tests)/[^ ]*\.swift|\$s(?:"
                  + "|".join(f"{len(name)}{name}" for name in MODULES) + r")(?!\w)")


def classify(stack):
    if any("once_slow" in frame or "swift_once" in frame for frame in stack):
        return "once-global"
    if not any(OURS.search(frame) for frame in stack):
        return "third-party"
    return "courier"


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    text = open(sys.argv[1], errors="replace").read()
    if "LeakSanitizer" not in text and "detect_leaks=0" not in text:
        print("lsan-triage: no LeakSanitizer section in the log (did the run reach exit?)")
    totals = {}
    examples = {}
    for block in re.split(r"\n(?=(?:Direct|Indirect) leak of )", text):
        head = re.match(r"(Direct|Indirect) leak of (\d+) byte\(s\) in (\d+) object", block)
        if not head:
            continue
        stack = [line.strip() for line in block.splitlines()[1:] if re.match(r"\s*#\d+ ", line)]
        kind = classify(stack)
        bytes_, objects = totals.get(kind, (0, 0))
        totals[kind] = (bytes_ + int(head.group(2)), objects + int(head.group(3)))
        examples.setdefault(kind, block.strip()[:1500])
    print("| class | bytes | objects |")
    print("| --- | ---: | ---: |")
    for kind in ("courier", "once-global", "third-party"):
        bytes_, objects = totals.get(kind, (0, 0))
        print(f"| {kind} | {bytes_} | {objects} |")
    if "courier" in totals:
        print("\nlsan-triage: Courier leaks memory; first report:\n" + examples["courier"])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
