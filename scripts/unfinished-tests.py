#!/usr/bin/env python3
"""Lists the Swift Testing tests a `swift test` log shows as started but never ended.

    scripts/unfinished-tests.py LOG

Used by scripts/sanitizers.sh when a run outlives its bound, to name the tests that hung.
"""
import collections
import re
import sys

STARTED = re.compile(r"^◇ Test (?!case passing)(.+?) started\.$")
ENDED = re.compile(r"^[✔✘] Test (.+?)(?: with \d+ test cases?)? (?:passed|failed) after ")

running = collections.Counter()
with open(sys.argv[1], errors="replace") as log:
    for line in log:
        line = line.rstrip("\n")
        if match := STARTED.match(line):
            running[match.group(1)] += 1
        elif match := ENDED.match(line):
            running[match.group(1)] -= 1
for name, count in running.items():
    if count > 0:
        print(name)
