#!/usr/bin/env python3
"""Validates every answer `courier mock --openapi` gives against the document, with openapi-core.

For each operation of the document, schemathesis draws valid requests (its positive generation, with
credentials for the document's security schemes); each goes to the running mock, and openapi-core checks
the answer (status, headers, body) against the document. Prints the counts; exits 1 when any answer
is invalid or any operation got no answer.
Usage: scripts/openapi-mock-answers.py DOCUMENT BASE_URL [--examples N] [--seed N]
"""
import argparse
import base64
import json
import sys
from pathlib import Path
from urllib.parse import urlsplit

import hypothesis
import schemathesis
import yaml
from hypothesis import HealthCheck, given, settings
from openapi_core import Config, OpenAPI
from openapi_core.testing import MockRequest, MockResponse


def load(path):
    text = Path(path).read_text()
    return json.loads(text) if text.lstrip().startswith("{") else yaml.safe_load(text)


def base_path(document):
    """The path of the first server URL, variables at their defaults (as the mock serves it)."""
    for server in document.get("servers") or []:
        url = server.get("url", "")
        for name, variable in (server.get("variables") or {}).items():
            url = url.replace("{%s}" % name, str(variable.get("default", "")))
        path = urlsplit(url).path if "://" in url else url
        return path.rstrip("/")
    return ""


def credentials(document):
    """Headers, query parameters and cookies that satisfy every security scheme of the document."""
    headers, query, cookies = {}, {}, {}
    for scheme in ((document.get("components") or {}).get("securitySchemes") or {}).values():
        kind = scheme.get("type")
        if kind == "http" and scheme.get("scheme", "").lower() == "basic":
            headers.setdefault("Authorization", "Basic " + base64.b64encode(b"user:pass").decode())
        elif kind in ("http", "oauth2", "openIdConnect"):
            headers.setdefault("Authorization", "Bearer mock-token")
        elif kind == "apiKey":
            {"header": headers, "query": query, "cookie": cookies}[scheme["in"]][scheme["name"]] = "mock-key"
    return headers, query, cookies


def json_media_types(value):
    """Every media type named in the document whose suffix is +json."""
    found = set()
    if isinstance(value, dict):
        for key, member in value.items():
            if key == "content" and isinstance(member, dict):
                found |= {name for name in member if name.split(";")[0].strip().endswith("+json")}
            found |= json_media_types(member)
    elif isinstance(value, list):
        for member in value:
            found |= json_media_types(member)
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("document")
    parser.add_argument("base_url")
    parser.add_argument("--examples", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    document = load(args.document)
    served = args.base_url.rstrip("/") + base_path(document)
    # openapi-core matches requests to the servers: point them at the mock, a path item's and an
    # operation's own servers too (each keeps its path).
    local = dict(document, servers=[{"url": served}])
    local["paths"] = {}
    for path, item in (document.get("paths") or {}).items():
        if isinstance(item, dict):
            item = dict(item)
            if item.get("servers"):
                item["servers"] = [{"url": args.base_url.rstrip("/") + base_path(item)}]
            for method in ("get", "put", "post", "delete", "options", "head", "patch", "trace"):
                if isinstance(item.get(method), dict) and item[method].get("servers"):
                    item[method] = dict(item[method],
                                        servers=[{"url": args.base_url.rstrip("/") + base_path(item[method])}])
        local["paths"][path] = item
    # openapi-core reads only application/json as JSON: the document's +json types (application/problem+json)
    # are JSON too.
    structured = {name: json.loads for name in json_media_types(document)}
    openapi = OpenAPI.from_dict(local, base_uri=Path(args.document).resolve().as_uri(),
                                config=Config(extra_media_type_deserializers=structured))
    schema = schemathesis.openapi.from_dict(local)
    headers, query, cookies = credentials(document)

    validated, invalid, failures, silent = 0, 0, [], []
    for result in schema.get_all_operations():
        operation = result.ok()
        answers = []

        @settings(
            max_examples=args.examples, deadline=None, database=None, derandomize=False,
            suppress_health_check=list(HealthCheck), phases=[hypothesis.Phase.generate],
        )
        @given(case=operation.as_strategy())
        @hypothesis.seed(args.seed)
        def exercise(case):
            for name, value in headers.items():
                case.headers = dict(case.headers or {}, **{name: value})
            case.query = dict(query, **(case.query or {}))
            case.cookies = dict(cookies, **(case.cookies or {}))
            response = case.call(base_url=served)
            answers.append((case, response))

        exercise()
        if not answers:
            silent.append(f"{operation.method.upper()} {operation.path}")
        for case, response in answers:
            sent = response.request
            url = urlsplit(sent.url)
            request = MockRequest(
                f"{url.scheme}://{url.netloc}", sent.method.lower(), url.path,
                args=dict(pair.split("=", 1) if "=" in pair else (pair, "") for pair in url.query.split("&") if pair),
                headers=dict(sent.headers), cookies=case.cookies or {},
                data=sent.body if isinstance(sent.body, (bytes, type(None))) else sent.body.encode(),
                content_type=sent.headers.get("Content-Type"),
            )
            answer_headers = {name: value[0] if isinstance(value, list) else value
                              for name, value in dict(response.headers).items()}
            answer = MockResponse(
                response.content, status_code=response.status_code, headers=answer_headers,
                content_type=answer_headers.get("content-type") or answer_headers.get("Content-Type"),
            )
            try:
                openapi.validate_response(request, answer)
                validated += 1
            except Exception as error:  # openapi-core raises one error type per kind of mismatch
                invalid += 1
                if len(failures) < 10:
                    failures.append(f"{sent.method} {sent.url} -> {response.status_code}: {error!r}"
                                    f"\n    {response.content[:300]!r}")

    print(f"openapi-core: {validated} answers validated, {invalid} invalid")
    for failure in failures:
        print("  " + failure)
    for operation in silent:
        print(f"  no request was generated for {operation}")
    return 1 if invalid or silent or validated == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
