#!/usr/bin/env bash
# Makes a private CA and a server certificate for the compose DocumentDB (host name "documentdb"), so the
# chartstream services validate the server's certificate (documentdb.tls.ca-file) instead of switching checks off.
# Run once before `docker compose up`; the files stay in docker/certs (git-ignored).
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/certs"
mkdir -p "$dir"
cd "$dir"
if [ -f ca.pem ] && [ -f documentdb.pem ]; then
  echo "certificates exist in $dir"
  exit 0
fi
openssl req -x509 -newkey rsa:3072 -nodes -days 825 -subj "/CN=chartstream compose CA" -keyout ca.key -out ca.pem
openssl req -newkey rsa:3072 -nodes -subj "/CN=documentdb" -keyout documentdb.key -out documentdb.csr
printf "subjectAltName=DNS:documentdb,DNS:localhost\nextendedKeyUsage=serverAuth\n" > documentdb.ext
openssl x509 -req -in documentdb.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 825 -extfile documentdb.ext -out documentdb.pem
rm -f documentdb.csr documentdb.ext
chmod 644 ca.pem documentdb.pem documentdb.key
echo "made $dir/ca.pem (trusted by the services) and documentdb.pem/.key (served by DocumentDB)"
