#!/usr/bin/env bash
# `npm run test:deploy`: the production image, docker-compose.yml and the Helm chart, each proven by
# running it. Starts a Docker engine if none runs (installing Debian's if missing), builds stand-ins
# for the official base images that are not present (no registry is reachable here), builds the
# image, brings the compose stack up with two workers and the examples profile, and runs the Jest
# specs under test/deploy against it (and the chart). Leaves no container, image, volume or daemon
# of its own behind, and fails, never skips, when something does not work.
set -euo pipefail
cd "$(dirname "$0")/../.."

log() { printf '\n== deploy: %s\n' "$*"; }
STAND_IN_TAGS=(node:22-bookworm-slim postgres:15-bookworm redis:7-bookworm debian:bookworm-slim)

project="sbdeploy$$"
export COMPOSE_PROJECT_NAME="$project"
export SWITCHBOARD_IMAGE="switchboard-deploy-test:$$"
export MCP_EVERYTHING_IMAGE="switchboard-mcp-everything-test:$$"
export SWITCHBOARD_API_KEYS="deploy=deploy-key-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
export POSTGRES_PASSWORD="pw-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
export SWITCHBOARD_CONFIG_FILE="./test/deploy/stack.toml"
export SWITCHBOARD_PORT="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
daemon_pid=""
built_stand_ins=()
made_ca_file=""
probe_container=""

compose() {
  if docker compose version >/dev/null 2>&1; then docker compose --profile examples "$@"; else docker-compose --profile examples "$@"; fi
}

cleanup() {
  local status=$?
  set +e
  log "cleaning up"
  [ -n "$probe_container" ] && docker rm -f "$probe_container" >/dev/null 2>&1
  compose down --volumes --remove-orphans >/dev/null 2>&1
  docker rmi -f "$SWITCHBOARD_IMAGE" "$MCP_EVERYTHING_IMAGE" >/dev/null 2>&1
  [ ${#built_stand_ins[@]} -gt 0 ] && docker rmi -f "${built_stand_ins[@]}" >/dev/null 2>&1
  docker image prune -f >/dev/null 2>&1
  [ -n "$made_ca_file" ] && rm -f extra-ca.pem
  if [ -n "$daemon_pid" ]; then kill "$daemon_pid" 2>/dev/null; wait "$daemon_pid" 2>/dev/null; fi
  exit $status
}
trap cleanup EXIT

log "docker engine"
if ! docker info >/dev/null 2>&1; then
  if ! command -v dockerd >/dev/null 2>&1 || ! command -v docker-compose >/dev/null 2>&1 || ! command -v mmdebstrap >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io docker-compose mmdebstrap >/dev/null
  fi
  # Without the ulimit flags every container fails with `setrlimit ... Operation not permitted` here.
  dockerd --exec-opt native.cgroupdriver=cgroupfs --default-ulimit nofile=1024:1024 --default-ulimit nproc=1024:1024 >/tmp/switchboard-deploy-dockerd.log 2>&1 &
  daemon_pid=$!
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
  docker info >/dev/null 2>&1 || { echo "dockerd did not start:"; tail -20 /tmp/switchboard-deploy-dockerd.log; exit 1; }
fi

missing=()
for tag in "${STAND_IN_TAGS[@]}"; do docker image inspect "$tag" >/dev/null 2>&1 || missing+=("$tag"); done
if [ ${#missing[@]} -gt 0 ]; then
  log "stand-in base images for ${missing[*]}"
  command -v mmdebstrap >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null; }
  built_stand_ins=("${missing[@]}")
  bash test/deploy/stand-ins/build.sh
fi

# Builds here reach npm through a TLS-inspecting proxy whose CA the host trusts: the same knob users have.
if [ ! -e extra-ca.pem ] && [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  cp "$NODE_EXTRA_CA_CERTS" extra-ca.pem
  made_ca_file=1
fi

log "building the image"
started=$(date +%s)
compose build >/dev/null
echo "built in $(( $(date +%s) - started )) s"
node -e '
  const [image, base] = process.argv.slice(1).map((line) => Number(line));
  console.log(`image ${(image / 1e6).toFixed(0)} MB: the base image ${(base / 1e6).toFixed(0)} MB + ${((image - base) / 1e6).toFixed(0)} MB of Switchboard`);
' "$(docker image inspect "$SWITCHBOARD_IMAGE" --format '{{.Size}}')" "$(docker image inspect node:22-bookworm-slim --format '{{.Size}}')"

log "docker run to /readyz 200 (embedded mode)"
probe_port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
started=$(node -e 'console.log(Date.now())')
probe_container="$(docker run -d -p "127.0.0.1:$probe_port:8080" -e SWITCHBOARD_ALLOW_OPEN=true "$SWITCHBOARD_IMAGE")"
for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$probe_port/readyz" >/dev/null && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$probe_port/readyz" >/dev/null || { docker logs "$probe_container"; exit 1; }
echo "ready $(( $(node -e 'console.log(Date.now())') - started )) ms after docker run"
docker stop --time 25 "$probe_container" >/dev/null
[ "$(docker inspect --format '{{.State.ExitCode}}' "$probe_container")" = 0 ] || { echo "SIGTERM did not end the container with status 0"; docker logs "$probe_container" | tail -20; exit 1; }
docker rm "$probe_container" >/dev/null
probe_container=""

log "docker compose up (two workers, examples profile)"
compose up -d --scale worker=2
deadline=$(( $(date +%s) + 180 ))
until [ "$(docker ps --filter "label=com.docker.compose.project=$project" --filter health=healthy --format '{{.Names}}' | wc -l)" -ge 5 ]; do
  if [ "$(date +%s)" -gt "$deadline" ]; then compose ps; compose logs --tail 30; exit 1; fi
  sleep 1
done
compose ps

log "the stack and the chart, from outside"
DEPLOY_URL="http://127.0.0.1:$SWITCHBOARD_PORT" DEPLOY_API_KEY="${SWITCHBOARD_API_KEYS#*=}" \
  npx jest -c test/deploy/jest.config.js --runInBand || { compose logs --tail 50 api worker; exit 1; }
