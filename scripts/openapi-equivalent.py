#!/usr/bin/env python3
"""Compares two OpenAPI documents as values, without order where OpenAPI gives none.

Objects are compared by key; the lists OpenAPI treats as sets (`required`, `enum`, `tags`, `security`,
and `parameters`, identified by `in` and `name`) are compared without order; every other list in order.
Prints each difference with its JSON pointer and exits 1 when there is one.
Usage: scripts/openapi-equivalent.py EXPECTED.json ACTUAL.json   (--self-test to check the comparison)
"""
import json, sys

UNORDERED = {"required", "enum", "tags", "security", "parameters"}


def escape(token):
    return str(token).replace("~", "~0").replace("/", "~1")


def key_of(item):
    if isinstance(item, dict) and "in" in item and "name" in item:
        return json.dumps([item["in"], item["name"]])
    return json.dumps(item, sort_keys=True)


def differences(expected, actual, pointer=""):
    found = []
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            where = f"{pointer}/{escape(key)}"
            if key not in actual:
                found.append(f"{where}: missing")
            elif key not in expected:
                found.append(f"{where}: unexpected {json.dumps(actual[key])[:120]}")
            else:
                found += differences(expected[key], actual[key], where)
    elif isinstance(expected, list) and isinstance(actual, list):
        if pointer.rsplit("/", 1)[-1] in UNORDERED:
            left = {key_of(item): item for item in expected}
            right = {key_of(item): item for item in actual}
            if len(left) != len(expected) or len(right) != len(actual):
                found.append(f"{pointer}: repeated members")
            for key in sorted(set(left) | set(right)):
                if key not in right:
                    found.append(f"{pointer}: missing {key}")
                elif key not in left:
                    found.append(f"{pointer}: unexpected {key}")
                else:
                    found += differences(left[key], right[key], f"{pointer}[{key}]")
        elif len(expected) != len(actual):
            found.append(f"{pointer}: {len(expected)} members, not {len(actual)}")
        else:
            for index, (left, right) in enumerate(zip(expected, actual)):
                found += differences(left, right, f"{pointer}/{index}")
    elif expected != actual or type(expected) is not type(actual):
        found.append(f"{pointer}: {json.dumps(expected)[:120]}, not {json.dumps(actual)[:120]}")
    return found


def self_test():
    a = {"paths": {"/x": {"get": {"tags": ["a", "b"], "parameters": [{"in": "query", "name": "p"},
                                                                     {"in": "path", "name": "id"}]}}},
         "list": [1, 2]}
    b = {"list": [1, 2], "paths": {"/x": {"get": {"tags": ["b", "a"], "parameters": [{"in": "path", "name": "id"},
                                                                                     {"in": "query", "name": "p"}]}}}}
    assert differences(a, b) == [], differences(a, b)
    assert differences({"list": [1, 2]}, {"list": [2, 1]}) == ["/list/0: 1, not 2", "/list/1: 2, not 1"]
    assert differences({"required": ["a"]}, {"required": ["a", "b"]}) == ['/required: unexpected "b"']
    assert differences({"a": {"b": 1}}, {"a": {}}) == ["/a/b: missing"]
    assert differences({"a": 1}, {"a": 1.0}) == ["/a: 1, not 1.0"]
    print("openapi-equivalent: self-test passed")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return 0
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 64
    expected, actual = (json.load(open(path)) for path in sys.argv[1:])
    found = differences(expected, actual)
    for difference in found:
        print(f"openapi-equivalent: {difference}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
