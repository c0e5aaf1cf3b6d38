#!/usr/bin/env python3
"""Writes yaml-test-suite.json: the yaml-test-suite's cases with libyaml's reading of each, the reference
that CourierOpenAPI's YAML reader is checked against (YAMLTestSuiteTests).

Usage: make-reference.py SUITE_DATA_DIR > yaml-test-suite.json
SUITE_DATA_DIR is a checkout of https://github.com/yaml/yaml-test-suite's `data` branch. libyaml is reached
through PyYAML's C parser (`yaml.CSafeLoader`), which reports libyaml's own events.

The subset kept is every case (by id; the suite's `name/` and `tags/` folders repeat them) where libyaml
agrees with the suite on whether the text is YAML at all: where libyaml is wrong by the suite, it is no
reference. The count of cases left out is written to stderr.

Each document becomes a canonical tree, aliases expanded: a scalar is ["=", tag, "plain"|"quoted", text]
(a block scalar counts as quoted), a sequence ["[", tag, items], a mapping ["{", tag, [[key, value], ...]];
tag is the tag as written and resolved by its handle, or null. A stream libyaml refuses is "error".
"""
import json, os, sys
import yaml

assert yaml.__with_libyaml__, "PyYAML without libyaml"


def canonical(events):
    documents, stack, anchors = [], [], {}

    def add(node):
        if not stack:
            documents.append(node)
        elif stack[-1][0] == "[":
            stack[-1][2].append(node)
        else:
            pairs = stack[-1][2]
            if pairs and len(pairs[-1]) == 1:
                pairs[-1].append(node)
            else:
                pairs.append([node])

    for event in events:
        if isinstance(event, yaml.ScalarEvent):
            node = ["=", event.tag, "plain" if event.style in ("", None) else "quoted", event.value]
            if event.anchor:
                anchors[event.anchor] = node
            add(node)
        elif isinstance(event, yaml.AliasEvent):
            add(anchors[event.anchor])
        elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            node = ["[" if isinstance(event, yaml.SequenceStartEvent) else "{", event.tag, []]
            if event.anchor:
                anchors[event.anchor] = node
            stack.append(node)
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            add(stack.pop())
    return documents


def cases(root):
    for name in sorted(os.listdir(root)):
        if name in ("name", "tags"):
            continue
        folder = os.path.join(root, name)
        if os.path.exists(os.path.join(folder, "in.yaml")):
            yield name, folder
        elif os.path.isdir(folder):
            for sub in sorted(os.listdir(folder)):
                if os.path.exists(os.path.join(folder, sub, "in.yaml")):
                    yield f"{name}/{sub}", os.path.join(folder, sub)


def main():
    out, left_out = [], 0
    for case, folder in cases(sys.argv[1]):
        with open(os.path.join(folder, "in.yaml"), "rb") as f:
            raw = f.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
        with open(os.path.join(folder, "===")) as f:
            title = f.read().strip()
        try:
            reference = canonical(yaml.parse(text, Loader=yaml.CSafeLoader))
        except yaml.YAMLError:
            reference = "error"
        says_error = os.path.exists(os.path.join(folder, "error"))
        if (reference == "error") != says_error:
            left_out += 1
            continue
        out.append({"id": case, "name": title, "suiteSaysError": says_error,
                    "yaml": text, "libyaml": reference})
    print(f"{len(out)} cases kept, {left_out} left out (libyaml disagrees with the suite)", file=sys.stderr)
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
