#!/usr/bin/env bash
# Installs what Courier's build, demo and tests need on Debian/Ubuntu, skipping what is present.
# Usage: scripts/install-deps.sh [build|test]   (build: libcurl; test: also nginx, curl, openssl, wrk)
set -euo pipefail
want=(libcurl4-openssl-dev pkg-config)
if [ "${1:-build}" = test ]; then
  want+=(nginx curl openssl time wrk)
  # The contract check makes a virtualenv for its PyPI tools; Debian's python3 needs python3-venv.
  if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then want+=(python3 python3-venv); fi
fi
missing=()
for pkg in "${want[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: apt-get not found; install these yourself: ${missing[*]}" >&2
    exit 1
  fi
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The PyPI tools live in one virtualenv that the tests and the contract check share (Debian's python3 has
# no pip, and refuses installs into the system, PEP 668): openapi-spec-validator and schemathesis for the
# contract checks; requests and WireMock's own client (`wiremock`) for the mock server's third-party tests;
# pact-python-cli for Pact's own `pact` binary (verifier and mock server; a wheel with no Python module, so
# its check is the binary), which scripts/pact-interop.sh runs; openapi-core to validate every answer
# `courier mock --openapi` gives against its document (0.19 or later: left unbounded, pip settles on 0.14
# beside the newest openapi-spec-validator, and 0.14 cannot import); mitmproxy, whose `hardump` writes the
# HAR files the HAR import is checked with, and whose reader checks the HAR export.
if [ "${1:-build}" = test ]; then
  venv="$(cd "$(dirname "$0")/.." && pwd)/.build/contract-venv"
  tools=(openapi-spec-validator schemathesis requests wiremock pact-python-cli "openapi-core>=0.19" mitmproxy)
  if [ ! -x "$venv/bin/python" ] \
    || ! "$venv/bin/python" -c 'import openapi_spec_validator, schemathesis, requests, wiremock; from openapi_core import OpenAPI' >/dev/null 2>&1 \
    || ! PACT_DO_NOT_TRACK=true "$venv/bin/pact" verifier --version >/dev/null 2>&1 \
    || ! [ -x "$venv/bin/mitmdump" ]; then
    echo "install-deps: pip install ${tools[*]} into $venv"
    mkdir -p "$(dirname "$venv")"
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${tools[@]}"
  fi
fi
# nginx is installed for its binary only. The tests and scripts start their own (their own configuration,
# pid file and error log in a temporary folder, on a free loopback port) and stop only that one; a system
# nginx, if one runs, is no concern of theirs and is left alone.
