#!/bin/sh
# npm for the image builds, trusting ./extra-ca.pem when it is there (the CA of a TLS-inspecting
# proxy). When the registry's certificate is what failed, says so and names extra-ca.pem: npm's own
# last words for it are often just "Exit handler never called!".
#   sh npm.sh ci --ignore-scripts     sh npm.sh install --global <package>
set -u
if [ -f extra-ca.pem ]; then export NODE_EXTRA_CA_CERTS="$PWD/extra-ca.pem"; fi
npm --no-audit --no-fund "$@" && exit 0
status=$?
registry="$(npm config get registry)"
problem="$(node -e '
  fetch(process.argv[1], { method: "HEAD", signal: AbortSignal.timeout(10000) }).then(
    () => {},
    (error) => console.log(error.cause?.code ?? error.cause?.message ?? error.message),
  );
' "$registry")"
case "$problem" in
  *CERT*|*SELF_SIGNED*|*UNABLE_TO_VERIFY*|*UNABLE_TO_GET_ISSUER*)
    if [ -f extra-ca.pem ]; then
      hint="./extra-ca.pem is there but does not hold the CA that signs what this network serves; put the proxy's CA bundle (PEM) in it"
    else
      hint="behind a TLS-inspecting proxy, put its CA bundle (PEM) at ./extra-ca.pem beside the Dockerfile and build again"
    fi
    echo "npm $1 failed: the certificate of $registry is not trusted ($problem); $hint." >&2 ;;
  "") echo "npm $1 failed (exit $status), although $registry answers; see npm's log above." >&2 ;;
  *) echo "npm $1 failed: $registry cannot be reached ($problem). Behind a proxy, check the build's network (and ./extra-ca.pem for a TLS-inspecting one)." >&2 ;;
esac
exit "$status"
