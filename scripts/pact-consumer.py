#!/usr/bin/env python3
"""A small consumer test against Pact's own mock server (`pact mock`), for scripts/pact-interop.sh.

Starts Pact's master mock server on a free loopback port, registers the consumer's expectations (a
version 4 pact with matchers: types, a regex, an array of at least one), exercises them over HTTP as
the consumer would, asks the mock server to verify that every expectation was met, which writes the
pact file to --out, and shuts the master server down.
Usage: pact-consumer.py --pact PATH_TO_PACT_BINARY --out DIR --work DIR
"""
import argparse, json, os, socket, subprocess, sys, time, urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(method, url, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read()


def rules(**paths):
    return {path: {"combine": "AND", "matchers": matchers} for path, matchers in paths.items()}


STATE = [{"name": "sample data exists", "params": {"count": 3}}]
EXPECTATIONS = {
    "consumer": {"name": "pact-python-consumer"},
    "provider": {"name": "courier-social"},
    "interactions": [
        {
            "type": "Synchronous/HTTP",
            "description": "a request for one user",
            "providerStates": STATE,
            "request": {"method": "GET", "path": "/users/u-000001", "headers": {"Accept": ["application/json"]}},
            "response": {
                "status": 200,
                "headers": {"Content-Type": ["application/json"]},
                "body": {
                    "contentType": "application/json", "encoded": False,
                    "content": {"id": "u-000001", "name": "Ada Lovelace", "createdAt": "2026-01-01T00:00:00Z"},
                },
                "matchingRules": {
                    "body": rules(**{
                        "$.id": [{"match": "regex", "regex": "u-\\d{6}"}],
                        "$.name": [{"match": "type"}],
                        "$.createdAt": [{"match": "regex", "regex": "\\d{4}-\\d{2}-\\d{2}T.*"}],
                    }),
                    "header": {"Content-Type": {"combine": "AND", "matchers": [
                        {"match": "regex", "regex": "application/json.*"}]}},
                },
            },
        },
        {
            "type": "Synchronous/HTTP",
            "description": "a request for all tweets",
            "providerStates": STATE,
            "request": {"method": "GET", "path": "/tweets"},
            "response": {
                "status": 200,
                "body": {
                    "contentType": "application/json", "encoded": False,
                    "content": [{"id": "t-000010", "uid": "u-000001", "caption": "Sample tweet 1", "likes": 0,
                                 "timestamp": "2026-01-01T00:01:00Z"}],
                },
                "matchingRules": {
                    "body": rules(**{
                        "$": [{"match": "type", "min": 1}],
                        "$[*].id": [{"match": "regex", "regex": "t-\\d{6}"}],
                        "$[*].likes": [{"match": "integer"}],
                    }),
                },
            },
        },
    ],
    "metadata": {"pactSpecification": {"version": "4.0"}},
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pact", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    port = free_port()
    with open(os.path.join(args.work, "pact-mock.log"), "w") as log:
        master = subprocess.Popen(
            [args.pact, "mock", "start", "--host", "127.0.0.1", "--port", str(port), "--output", args.out,
             "--no-term-log", "--no-file-log"],
            stdout=log, stderr=subprocess.STDOUT, cwd=args.work)
    with open(os.path.join(args.work, "pact-mock.pid"), "w") as pid:
        pid.write(str(master.pid))
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                call("GET", base + "/")
                break
            except OSError:
                time.sleep(0.1)
        status, body = call("POST", base + "/", EXPECTATIONS)
        created = json.loads(body)["mockServer"]
        mock = f"http://127.0.0.1:{created['port']}"
        # The consumer's side of the test: it calls the API and uses what comes back.
        status, body = call("GET", mock + "/users/u-000001", headers={"Accept": "application/json"})
        assert status == 200 and json.loads(body)["name"], body
        status, body = call("GET", mock + "/tweets")
        assert status == 200 and len(json.loads(body)) >= 1, body
        status, body = call("POST", f"{base}/mockserver/{created['id']}/verify")
        print(f"pact-consumer: Pact's mock server verified the consumer ({status}) and wrote the pact")
        call("DELETE", f"{base}/mockserver/{created['id']}")
    finally:
        master.terminate()
        master.wait(timeout=10)
    written = [name for name in os.listdir(args.out) if name.endswith(".json")]
    if not written:
        sys.exit("pact-consumer: Pact's mock server wrote no pact file")


if __name__ == "__main__":
    main()
