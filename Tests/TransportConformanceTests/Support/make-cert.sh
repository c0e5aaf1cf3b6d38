#!/bin/sh
# Writes a self-signed certificate for 127.0.0.1 and localhost into $1 (cert.pem, key.pem).
# The certificate is its own CA, so cert.pem doubles as the CA bundle that trusts it.
set -eu
dir="$1"
openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 2 \
    -subj "/CN=localhost" \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    -addext "basicConstraints=critical,CA:TRUE" \
    -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>"$dir/openssl.log"
