#!/usr/bin/env bash
# `npm run image -- [--push] [NAME[:TAG]]`: builds Switchboard's production image from this checkout
# and tags it NAME:TAG (default switchboard:<package.json version>, the Helm chart's default image);
# with --push, pushes it to the registry NAME names (log in with `docker login` first). Behind a
# TLS-inspecting proxy, put its CA bundle (PEM) at ./extra-ca.pem first.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: npm run image -- [--push] [NAME[:TAG]]   e.g. npm run image -- --push registry.example.com/team/switchboard:0.1.0" >&2; exit 64; }

version="$(node -p 'require("./package.json").version')"
push=""
name=""
for arg in "$@"; do
  case "$arg" in
    --push) push=1 ;;
    -*) usage ;;
    *) [ -z "$name" ] || usage; name="$arg" ;;
  esac
done
if [ -n "$push" ] && [ -z "$name" ]; then
  echo "image: --push needs the name to push to, with its registry: npm run image -- --push REGISTRY/NAME:TAG" >&2
  exit 64
fi
name="${name:-switchboard}"
# A tag is what follows the last colon after the last slash (a registry's port is not a tag).
case "${name##*/}" in *:*) ;; *) name="$name:$version" ;; esac

command -v docker >/dev/null 2>&1 || { echo "image: docker is not installed" >&2; exit 69; }
docker build --tag "$name" .
echo "image: built $name"
if [ -n "$push" ]; then
  docker push "$name"
  echo "image: pushed $name; install the chart with: helm install switchboard ./helm/switchboard --set image.repository=${name%:*} --set image.tag=${name##*:}"
fi
