#!/bin/sh
# Writes .env for docker-compose.yml from .env.example, every `replace-with-...` placeholder replaced
# by a random secret of its own. Refuses to overwrite an existing .env unless given --force.
#   sh docker/make-env.sh [--force]
set -eu
cd "$(dirname "$0")/.."

case "${1:-}" in
  --force) ;;
  "") if [ -e .env ]; then echo "make-env: .env exists; keep it, or run again with --force to replace it" >&2; exit 1; fi ;;
  *) echo "usage: sh docker/make-env.sh [--force]" >&2; exit 64 ;;
esac

random_secret() { od -An -N24 -tx1 /dev/urandom | tr -d ' \n'; }

umask 077
tmp=".env.$$"
trap 'rm -f "$tmp"' EXIT
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in
    \#*) printf '%s\n' "$line" ;;
    *=replace-with-*) printf '%s=%s\n' "${line%%=replace-with-*}" "$(random_secret)" ;;
    *) printf '%s\n' "$line" ;;
  esac
done < .env.example > "$tmp"
mv "$tmp" .env
echo "make-env: wrote .env with new random secrets (API key name and key: SWITCHBOARD_API_KEYS in .env)"
