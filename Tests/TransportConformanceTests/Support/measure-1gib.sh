#!/bin/sh
# Measures CurlTransport's peak resident memory for a 1 GiB upload and a 1 GiB download,
# through the `courier` CLI (`courier send ... --transport curl`), against nginx on
# loopback (WebDAV PUT to store the upload, static GET to serve it back), so the figure
# is the client's alone. Usage, from the package root after `swift build`:
#   sh Tests/TransportConformanceTests/Support/measure-1gib.sh [path/to/courier] [size-in-MiB]
# Prints each transfer's "Maximum resident set size" from /usr/bin/time -v and checks the
# SHA-256 of the file that came back.
set -eu
courier="${1:-.build/debug/courier}"
mib="${2:-1024}"
[ -x "$courier" ] || { echo "no courier binary at $courier (run swift build)"; exit 1; }
nginx=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx" ] || { echo "nginx is not installed (apt-get install nginx)"; exit 1; }

dir=$(mktemp -d /tmp/courier-measure-XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
mkdir -p "$dir/www" "$dir/tmp"
cat > "$dir/nginx.conf" <<CONF
master_process off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $dir/tmp;
    proxy_temp_path $dir/tmp;
    fastcgi_temp_path $dir/tmp;
    uwsgi_temp_path $dir/tmp;
    scgi_temp_path $dir/tmp;
    server {
        listen 127.0.0.1:$port;
        root $dir/www;
        client_max_body_size 0;
        location / { dav_methods PUT; create_full_put_path on; }
    }
}
CONF
"$nginx" -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf" -g 'daemon off;' &
nginx_pid=$!
trap 'kill -9 $nginx_pid 2>/dev/null; rm -rf "$dir"' EXIT
i=0
until python3 -c "import socket; socket.create_connection(('127.0.0.1',$port),1)" 2>/dev/null; do
    i=$((i + 1)); [ $i -lt 100 ] || { cat "$dir/error.log"; exit 1; }; sleep 0.05
done

head -c "$((mib * 1024 * 1024))" /dev/urandom > "$dir/big.bin"
sent=$(sha256sum "$dir/big.bin" | cut -d' ' -f1)

/usr/bin/time -v "$courier" send PUT "http://127.0.0.1:$port/big.bin" --data "@$dir/big.bin" \
    -H 'Content-Type: application/octet-stream' --transport curl --timeout 900 --fail \
    > /dev/null 2> "$dir/up.time"
echo "upload   ${mib} MiB: $(grep 'Maximum resident' "$dir/up.time" | sed 's/^[[:space:]]*//'), $(grep 'Elapsed' "$dir/up.time" | sed 's/^[[:space:]]*//')"
stored=$(sha256sum "$dir/www/big.bin" | cut -d' ' -f1)

/usr/bin/time -v "$courier" send GET "http://127.0.0.1:$port/big.bin" --output "$dir/down.bin" \
    --transport curl --timeout 900 --fail > /dev/null 2> "$dir/down.time"
echo "download ${mib} MiB: $(grep 'Maximum resident' "$dir/down.time" | sed 's/^[[:space:]]*//'), $(grep 'Elapsed' "$dir/down.time" | sed 's/^[[:space:]]*//')"
received=$(sha256sum "$dir/down.bin" | cut -d' ' -f1)

[ "$sent" = "$stored" ] && [ "$sent" = "$received" ] && echo "sha256 ok both ways: $sent" || {
    echo "sha256 MISMATCH: sent $sent stored $stored received $received"; exit 1; }
