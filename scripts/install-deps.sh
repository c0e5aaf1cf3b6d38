#!/usr/bin/env bash
# Installs what Courier's build, demo and tests need on Debian/Ubuntu, skipping what is present.
# Usage: scripts/install-deps.sh [build|test]   (build: libcurl only; test: also nginx, curl, openssl, wrk)
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
# The mock server's third-party client tests drive it with Python's `requests` and WireMock's own client.
if [ "${1:-build}" = test ] && ! python3 -c 'import requests' >/dev/null 2>&1; then
  echo "install-deps: pip install requests"
  python3 -m pip install --quiet --disable-pip-version-check requests
fi
# The contract tools (openapi-spec-validator, schemathesis) live in a virtualenv the tests and the contract
# check share.
if [ "${1:-build}" = test ]; then
  venv="$(cd "$(dirname "$0")/.." && pwd)/.build/contract-venv"
  if [ ! -x "$venv/bin/schemathesis" ] || [ ! -x "$venv/bin/python" ]; then
    echo "install-deps: pip install openapi-spec-validator schemathesis into $venv"
    mkdir -p "$(dirname "$venv")"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check openapi-spec-validator schemathesis
  fi
fi
if [ "${1:-build}" = test ] && ! python3 -c 'import wiremock' >/dev/null 2>&1; then
  echo "install-deps: pip install wiremock"
  python3 -m pip install --quiet --disable-pip-version-check wiremock
fi
# nginx from Debian starts a system service on install; the tests start their own on loopback.
if [ "${1:-build}" = test ] && command -v service >/dev/null 2>&1; then
  service nginx stop >/dev/null 2>&1 || true
fi
