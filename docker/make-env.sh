#!/bin/sh
# Writes .env for docker-compose.yml from .env.example, every `replace-with-...` placeholder replaced
# by a random secret of its own. An existing .env is left alone unless given --force; then every
# line of it stays as it is (your own variables, comments, values and secrets: a new
# POSTGRES_PASSWORD would not open a database created with the old one), placeholders left in it get
# random secrets, and the variables of .env.example it lacks are added. It says which.
#   sh docker/make-env.sh [--force]
set -eu
cd "$(dirname "$0")/.."

case "${1:-}" in
  --force) ;;
  "") if [ -e .env ]; then echo "make-env: .env exists; keep it, or run again with --force to fill in what it lacks (its own lines and secrets are kept)" >&2; exit 1; fi ;;
  *) echo "usage: sh docker/make-env.sh [--force]" >&2; exit 64 ;;
esac

random_secret() { od -An -N24 -tx1 /dev/urandom | tr -d ' \n'; }

# Prints the line with each placeholder (`replace-with-...`, up to the next comma) a new random secret.
with_secrets() {
  rest=$1
  out=
  while :; do
    case "$rest" in
      *replace-with-*)
        out="$out${rest%%replace-with-*}$(random_secret)"
        rest=${rest#*replace-with-}
        case "$rest" in *,*) rest=",${rest#*,}" ;; *) rest= ;; esac
        ;;
      *)
        printf '%s%s\n' "$out" "$rest"
        return
        ;;
    esac
  done
}

umask 077
tmp=".env.$$"
trap 'rm -f "$tmp"' EXIT
replaced=""
added=""
if [ -e .env ]; then
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in
      \#*) printf '%s\n' "$line" ;;
      *=*replace-with-*) with_secrets "$line"; replaced="$replaced ${line%%=*}" ;;
      *) printf '%s\n' "$line" ;;
    esac
  done < .env > "$tmp"
  # The variables of .env.example that .env lacks, each after the comment lines above it there.
  comments=""
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in
      \#*) comments="$comments$line
" ;;
      [A-Za-z_]*=*)
        name=${line%%=*}
        if ! grep -q "^$name=" .env; then
          [ -n "$added" ] || printf '# Added by `sh docker/make-env.sh --force` from .env.example:\n'
          printf '%s' "$comments"
          with_secrets "$line"
          added="$added $name"
        fi
        comments=""
        ;;
      *) comments="" ;;
    esac
  done < .env.example >> "$tmp"
  if [ -z "$replaced$added" ]; then
    echo "make-env: .env has every variable of .env.example and no placeholder; nothing to change"
    exit 0
  fi
  mv "$tmp" .env
  echo "make-env: kept every line of .env${replaced:+; new random secrets for the placeholders of$replaced}${added:+; added from .env.example:$added}"
else
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in
      \#*) printf '%s\n' "$line" ;;
      *) with_secrets "$line" ;;
    esac
  done < .env.example > "$tmp"
  mv "$tmp" .env
  echo "make-env: wrote .env with new random secrets"
fi
port=$(sed -n 's/^SWITCHBOARD_PORT=//p' .env | tail -n 1)
echo "make-env: log in to the console, http://localhost:${port:-8080}/console, with the operator key of SWITCHBOARD_ADMIN_KEYS in .env (what follows 'admin='); clients take the keys of SWITCHBOARD_API_KEYS"
