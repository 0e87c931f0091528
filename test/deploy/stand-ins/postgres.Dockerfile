# Stand-in for postgres:15-bookworm: Debian's PostgreSQL 15 with an entrypoint that honours the
# official image's POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB and PGDATA.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-15 gosu && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/postgresql/data /var/run/postgresql && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENTRYPOINT ["docker-entrypoint.sh"]
EXPOSE 5432
CMD ["postgres"]
