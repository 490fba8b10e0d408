#!/bin/sh
# The test PKI of the remote cache's TLS tests (tests/end_to_end/remote.rs):
# a CA, a server certificate for 127.0.0.1 and localhost, and a client
# certificate (mTLS), all ECDSA P-256, valid for 100 years. Made once with
# OpenSSL 3 and committed; rerun to replace them. Test keys: never use them
# for anything else.
set -eu
cd "$(dirname "$0")"
days=36500
ec() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }
ec ca.key
openssl req -x509 -new -key ca.key -days $days -subj "/CN=kiln test CA" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -out ca.pem
leaf() { # name, subject, extensions
  ec "$1.key"
  openssl req -new -key "$1.key" -subj "/CN=$2" -out "$1.csr"
  printf '%s\n' "$3" > "$1.ext"
  openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -days $days -extfile "$1.ext" -out "$1.pem"
  rm "$1.csr" "$1.ext"
}
leaf server "127.0.0.1" "basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,DNS:localhost"
leaf client "kiln test client" "basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=clientAuth"
# A second CA, and a client certificate it signed: neither is trusted by
# the test servers.
ec other-ca.key
openssl req -x509 -new -key other-ca.key -days $days -subj "/CN=another CA" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -out other-ca.pem
ec other-client.key
openssl req -new -key other-client.key -subj "/CN=another client" -out other-client.csr
printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n' > other-client.ext
openssl x509 -req -in other-client.csr -CA other-ca.pem -CAkey other-ca.key -CAcreateserial -days $days -extfile other-client.ext -out other-client.pem
rm -f ca.srl other-ca.srl other-ca.key other-client.csr other-client.ext
