#!/usr/bin/env bash
# `npm run test:deploy`: the production image, docker-compose.yml and the Helm chart, each proven by
# running it. Clones the commit under test (never the working tree: an untracked file must not make
# it pass), then follows the README from there: `npm run image` (the chart's default image),
# compose with the .env.example placeholders (refused), then with docker/make-env.sh's secrets and
# the committed configuration, then with the configuration under test. Starts a Docker engine if
# none runs (installing Debian's if missing) and builds stand-ins for the official base images that
# are not present (no registry is reachable here). Leaves no container, image, volume or daemon of
# its own behind, and fails, never skips, when something does not work.
set -euo pipefail
cd "$(dirname "$0")/../.."

log() { printf '\n== deploy: %s\n' "$*"; }
fail() { echo "deploy: $*" >&2; exit 1; }
STAND_IN_TAGS=(node:22-bookworm-slim postgres:15-bookworm redis:7-bookworm debian:bookworm-slim)

repo="$PWD"
work="$(mktemp -d)"
# Compose names the project after the clone's directory.
project="sbdeploy$$"
clone="$work/$project"
image="switchboard:$(node -p 'require("./package.json").version')"
# The images the examples profile builds (their default tags), removed at the end.
mapfile -t example_images < <(node -e '
  const { services } = require("yaml").parse(require("fs").readFileSync("docker-compose.yml", "utf8"));
  for (const service of Object.values(services)) if (service.profiles?.includes("examples")) console.log(service.image.replace(/^\$\{[A-Z_]+:-(.*)\}$/, "$1"));
')
daemon_pid=""
registry_pid=""
built_stand_ins=()
probe_container=""

compose() {
  if docker compose version >/dev/null 2>&1; then (cd "$clone" && docker compose "$@"); else (cd "$clone" && docker-compose "$@"); fi
}

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

# The README's own words: the test runs these commands, so the README must still show them.
readme_shows() { grep -qF -- "$1" "$clone/README.md" || fail "README.md no longer shows \`$1\`, which this test runs"; }

# Sets KEY=VALUE in the clone's .env, as a user editing it would.
set_env() { sed -i "/^$1=/d" "$clone/.env"; printf '%s=%s\n' "$1" "$2" >> "$clone/.env"; }

service_containers() {
  docker ps --all --filter "label=com.docker.compose.project=$project" --filter "label=com.docker.compose.service=$1" --format '{{.ID}}'
}

wait_healthy() {
  local deadline=$(( $(date +%s) + 180 ))
  until [ "$(docker ps --filter "label=com.docker.compose.project=$project" --filter health=healthy --format '{{.Names}}' | wc -l)" -ge "$1" ]; do
    if [ "$(date +%s)" -gt "$deadline" ]; then compose ps; compose logs --tail 30; exit 1; fi
    sleep 1
  done
  compose ps
}

run_specs() {
  DEPLOY_URL="http://127.0.0.1:$port" DEPLOY_OIDC_URL="http://127.0.0.1:$oidc_port" DEPLOY_API_KEY="$(sed -n 's/^SWITCHBOARD_API_KEYS=[^=]*=//p' "$clone/.env")" \
    DEPLOY_ADMIN_KEY="$(sed -n 's/^SWITCHBOARD_ADMIN_KEYS=[^=]*=//p' "$clone/.env")" COMPOSE_PROJECT_NAME="$project" \
    npx jest -c test/deploy/jest.config.js --runInBand "$@" || { compose logs --tail 50 api worker; exit 1; }
}

cleanup() {
  local status=$?
  set +e
  log "cleaning up"
  [ -n "$probe_container" ] && docker rm -f "$probe_container" >/dev/null 2>&1
  [ -n "$registry_pid" ] && kill "$registry_pid" 2>/dev/null
  [ -d "$clone" ] && compose --profile examples down --volumes --remove-orphans >/dev/null 2>&1
  docker rmi -f "$image" "${example_images[@]}" "${pushed:-}" >/dev/null 2>&1
  [ ${#built_stand_ins[@]} -gt 0 ] && docker rmi -f "${built_stand_ins[@]}" >/dev/null 2>&1
  docker image prune -f >/dev/null 2>&1
  rm -rf "$work"
  if [ -n "$daemon_pid" ]; then kill "$daemon_pid" 2>/dev/null; wait "$daemon_pid" 2>/dev/null; fi
  exit $status
}
trap cleanup EXIT

log "docker engine"
if ! docker info >/dev/null 2>&1; then
  if ! command -v dockerd >/dev/null 2>&1 || ! command -v docker-compose >/dev/null 2>&1 || ! command -v mmdebstrap >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io docker-compose mmdebstrap docker-registry >/dev/null
  fi
  # Without the ulimit flags every container fails with `setrlimit ... Operation not permitted` here.
  dockerd --exec-opt native.cgroupdriver=cgroupfs --default-ulimit nofile=1024:1024 --default-ulimit nproc=1024:1024 >/tmp/switchboard-deploy-dockerd.log 2>&1 &
  daemon_pid=$!
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
  docker info >/dev/null 2>&1 || { echo "dockerd did not start:"; tail -20 /tmp/switchboard-deploy-dockerd.log; exit 1; }
fi
docker image inspect "$image" >/dev/null 2>&1 && fail "an image $image exists already; this test builds and removes its own"

missing=()
for tag in "${STAND_IN_TAGS[@]}"; do docker image inspect "$tag" >/dev/null 2>&1 || missing+=("$tag"); done
if [ ${#missing[@]} -gt 0 ]; then
  log "stand-in base images for ${missing[*]}"
  command -v mmdebstrap >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null; }
  built_stand_ins=("${missing[@]}")
  bash test/deploy/stand-ins/build.sh
fi

log "a fresh clone of the commit under test"
git clone --quiet --no-hardlinks "$repo" "$clone"
echo "testing $(git -C "$clone" log -1 --format='%h %s' | cut -c1-100)"
[ -z "$(git status --porcelain --untracked-files=no)" ] || echo "(uncommitted changes in $repo are not part of this test)"
# The README's step for builds behind a TLS-inspecting proxy, which these machines are.
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then cp "$NODE_EXTRA_CA_CERTS" "$clone/extra-ca.pem"; fi
for step in "npm run image -- --push REGISTRY/NAME:TAG" "cp .env.example .env" "sh docker/make-env.sh" "docker compose up -d --build" "docker-compose up -d --build" "--profile examples" "--scale worker=" "SWITCHBOARD_CONFIG_FILE"; do
  readme_shows "$step"
done

log "npm run image (the chart's default image, $image)"
started=$(date +%s)
(cd "$clone" && npm run -s image >"$work/image.log" 2>&1) || { tail -30 "$work/image.log"; fail "npm run image failed"; }
echo "built in $(( $(date +%s) - started )) s"
node -e '
  const [image, base] = process.argv.slice(1).map((line) => Number(line));
  console.log(`image ${(image / 1e6).toFixed(0)} MB: the base image ${(base / 1e6).toFixed(0)} MB + ${((image - base) / 1e6).toFixed(0)} MB of Switchboard`);
' "$(docker image inspect "$image" --format '{{.Size}}')" "$(docker image inspect node:22-bookworm-slim --format '{{.Size}}')"

log "npm run image -- --push REGISTRY/NAME:TAG, and a pull back (a local registry: Debian's docker-registry)"
command -v docker-registry >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-registry >/dev/null; }
registry_port="$(free_port)"
printf 'version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: %s\nhttp:\n  addr: 127.0.0.1:%s\nlog:\n  level: warn\n' "$work/registry" "$registry_port" > "$work/registry.yml"
docker-registry serve "$work/registry.yml" >"$work/registry.log" 2>&1 &
registry_pid=$!
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$registry_port/v2/" >/dev/null && break; sleep 0.1; done
# A loopback registry needs no TLS: Docker trusts 127.0.0.0/8 without being told.
pushed="127.0.0.1:$registry_port/team/switchboard:$(node -p 'require("./package.json").version')"
(cd "$clone" && npm run -s image -- --push "$pushed" >"$work/push.log" 2>&1) || { tail -30 "$work/push.log"; fail "npm run image -- --push failed"; }
grep -F "helm install switchboard ./helm/switchboard --set image.repository=${pushed%:*} --set image.tag=${pushed##*:}" "$work/push.log" >/dev/null \
  || { tail -5 "$work/push.log"; fail "npm run image -- --push did not print the helm install command for $pushed"; }
docker rmi "$pushed" >/dev/null
docker pull --quiet "$pushed" >/dev/null || fail "the image npm run image pushed cannot be pulled back from $pushed"
echo "pushed $pushed and pulled it back"

log "docker run to /readyz 200 (embedded mode)"
probe_port="$(free_port)"
started=$(node -e 'console.log(Date.now())')
probe_container="$(docker run -d -p "127.0.0.1:$probe_port:8080" -e SWITCHBOARD_ALLOW_OPEN=true "$image")"
for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$probe_port/readyz" >/dev/null && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$probe_port/readyz" >/dev/null || { docker logs "$probe_container"; exit 1; }
echo "ready $(( $(node -e 'console.log(Date.now())') - started )) ms after docker run"
docker stop --time 25 "$probe_container" >/dev/null
[ "$(docker inspect --format '{{.State.ExitCode}}' "$probe_container")" = 0 ] || { echo "SIGTERM did not end the container with status 0"; docker logs "$probe_container" | tail -20; exit 1; }
docker rm "$probe_container" >/dev/null
probe_container=""

log "cp .env.example .env && docker compose up -d --build: the placeholder secrets are refused"
port="$(free_port)"
cp "$clone/.env.example" "$clone/.env"
set_env SWITCHBOARD_PORT "$port"
if compose up -d --build >"$work/placeholder.log" 2>&1; then cat "$work/placeholder.log"; fail "the stack started with the placeholder secrets of .env.example"; fi
check="$(service_containers check)"
[ -n "$check" ] && [ "$(docker inspect --format '{{.State.ExitCode}}' "$check")" = 78 ] || { cat "$work/placeholder.log"; fail "the check service did not exit 78"; }
said="$(compose logs --no-color check)"
for variable in SWITCHBOARD_ADMIN_KEYS SWITCHBOARD_API_KEYS; do
  echo "$said" | grep -q "$variable): the key is a placeholder" || fail "check did not name $variable: $said"
done
echo "$said" | grep -q 'POSTGRES_PASSWORD in .env.*is a placeholder.*sh docker/make-env.sh --force' || fail "check did not name POSTGRES_PASSWORD and make-env: $said"
[ -z "$(service_containers postgres)" ] || [ "$(docker inspect --format '{{.State.Running}}' "$(service_containers postgres)")" = false ] \
  || fail "Postgres started with the placeholder password"
echo "refused: $(echo "$said" | grep -o 'auth.api_keys.*placeholder' | head -1)"

log "sh docker/make-env.sh --force && docker compose --profile examples up -d --build --scale worker=2"
(cd "$clone" && sh docker/make-env.sh --force)
set_env SWITCHBOARD_PORT "$port"
oidc_port="$(free_port)"
set_env OIDC_PORT "$oidc_port"
compose --profile examples up -d --build --scale worker=2
# postgres, redis, the API, two workers and the examples' OpenID provider
wait_healthy 6

log "the stack from outside, and the chart"
run_specs compose-fresh-clone helm

log "SWITCHBOARD_CONFIG_FILE=./test/deploy/stack.toml in .env: the configuration under test"
set_env SWITCHBOARD_CONFIG_FILE ./test/deploy/stack.toml
compose --profile examples up -d --build --scale worker=2
wait_healthy 6
run_specs 'compose\.e2e'
