#!/bin/sh
# The official image's contract, as far as docker-compose.yml uses it: first start initializes
# PGDATA with POSTGRES_USER/POSTGRES_PASSWORD and creates POSTGRES_DB; the server runs as postgres.
set -eu
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" && chown -R postgres:postgres "$PGDATA" && chmod 700 "$PGDATA"
  exec gosu postgres "$0" "$@"
fi
user="${POSTGRES_USER:-postgres}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}" > /tmp/pwfile
  initdb --username="$user" --pwfile=/tmp/pwfile --auth-host=scram-sha-256 --auth-local=trust -D "$PGDATA" >/dev/null
  rm -f /tmp/pwfile
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  if [ -n "${POSTGRES_DB:-}" ] && [ "$POSTGRES_DB" != "postgres" ]; then
    postgres --single -D "$PGDATA" -j postgres <<SQL >/dev/null
CREATE DATABASE "$POSTGRES_DB" OWNER "$user";
SQL
  fi
fi
exec "$@" -c listen_addresses='*'
