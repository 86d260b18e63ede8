#!/usr/bin/env bash
# One-time (idempotent) set-up of a checkout: Node dependencies, HAProxy, the compiled CLI and,
# unless --no-control-plane is given, the kube-apiserver and etcd binaries the integration tests use.
# Every step prints what it does; every failure names the cause and the fix.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

WITH_CONTROL_PLANE=1
for arg in "$@"; do
  case "$arg" in
    --no-control-plane) WITH_CONTROL_PLANE=0 ;;
    -h|--help) echo "usage: hack/setup.sh [--no-control-plane]"; exit 0 ;;
    *) echo "setup: unknown argument $arg" >&2; exit 2 ;;
  esac
done

log() { printf '[setup] %s\n' "$*" >&2; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

command -v node >/dev/null 2>&1 || die "Node.js >= 20.19 is required (Debian: install nodejs 20 or 22)"
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
  || die "Node.js >= 20.19 is required, found $(node --version)"

if [[ ! -d node_modules || package-lock.json -nt node_modules/.package-lock.json ]]; then
  log "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error || die "npm ci failed; check access to the npm registry"
fi

if [[ -z "${HAPROXY_BIN:-}" ]] && ! command -v haproxy >/dev/null 2>&1 && [[ ! -x /usr/sbin/haproxy ]]; then
  if [[ "$(id -u)" == "0" ]]; then
    log "installing HAProxy (apt-get install haproxy)"
    apt-get update -qq || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null || die "apt-get install haproxy failed"
    # Debian's package starts a system haproxy on :80 we do not want; tests start their own.
    if command -v systemctl >/dev/null 2>&1; then systemctl stop haproxy >/dev/null 2>&1 || true; fi
  else
    die "haproxy not found: install HAProxy 2.6 or later (Debian: sudo apt-get install haproxy) or set HAPROXY_BIN"
  fi
fi

log "compiling TypeScript (npm run build)"
npm run --silent build || die "npm run build failed (see the compiler errors above)"

if [[ "$WITH_CONTROL_PLANE" == "1" && -z "${KUBEBUILDER_ASSETS:-}" && -z "${TEST_ASSET_KUBE_APISERVER:-}" ]]; then
  bash hack/build-control-plane.sh
fi
log "ready"
