#!/bin/sh
# The official image builds Redis with protected mode off; Debian's is on, which refuses other containers.
set -eu
if [ "${1:-}" = redis-server ]; then exec "$@" --protected-mode no; fi
exec "$@"
