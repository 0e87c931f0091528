# Stand-in for redis:7-bookworm: Debian's Redis 7, data in /data, `redis-server` as the default
# command, reachable from other containers without a password as the official image is.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends redis-server && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data && chown redis:redis /data
COPY redis-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
WORKDIR /data
USER redis
EXPOSE 6379
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["redis-server"]
