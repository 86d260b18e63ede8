#!/usr/bin/env bash
# Builds kube-apiserver and etcd for the integration tests from the Go module proxy.
# Binaries are cached outside the repository, keyed by the pinned versions, so later runs skip
# the build. Only the wrapper go.mod/go.sum files under tools/ are committed, never a binary.
#
# Usage: hack/build-control-plane.sh [--print-dir]
#   --print-dir   print the cache directory holding the binaries and exit 0 (builds first if needed)
set -euo pipefail

K8S_VERSION="${HAPTIC_K8S_VERSION:-1.34.4}"
ETCD_VERSION="${HAPTIC_ETCD_VERSION:-3.6.16}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/haptic/k8s-${K8S_VERSION}-etcd-${ETCD_VERSION}"
export GOTOOLCHAIN=local
export GOFLAGS="${GOFLAGS:-} -mod=mod"

log() { printf '[control-plane] %s\n' "$*" >&2; }
die() { printf '[control-plane] error: %s\n' "$*" >&2; exit 1; }

if [[ -x "$CACHE_DIR/kube-apiserver" && -x "$CACHE_DIR/etcd" ]]; then
  [[ "${1:-}" == "--print-dir" ]] && echo "$CACHE_DIR"
  exit 0
fi

command -v go >/dev/null 2>&1 || die "the Go toolchain (go >= 1.24) is needed to build kube-apiserver and etcd; install Go, or set KUBEBUILDER_ASSETS (or TEST_ASSET_KUBE_APISERVER and TEST_ASSET_ETCD) to prebuilt binaries"
mkdir -p "$CACHE_DIR"
start=$(date +%s)

build_kube_apiserver() {
  local dir="$ROOT/tools/kube-apiserver" minor="${K8S_VERSION#1.}"; minor="${minor%%.*}"
  cd "$dir"
  if ! grep -q "k8s.io/kubernetes v${K8S_VERSION}" go.mod 2>/dev/null; then
    log "generating tools/kube-apiserver/go.mod for k8s.io/kubernetes v${K8S_VERSION}"
    rm -f go.mod go.sum
    go mod init haptic.invalid/tools/kube-apiserver >/dev/null 2>&1
    local gomod
    gomod=$(go mod download -json "k8s.io/kubernetes@v${K8S_VERSION}" | sed -n 's/.*"GoMod": "\(.*\)",*/\1/p') \
      || die "could not download k8s.io/kubernetes@v${K8S_VERSION} from the Go module proxy (check GOPROXY and the network)"
    [[ -f "$gomod" ]] || die "module download gave no go.mod for k8s.io/kubernetes@v${K8S_VERSION}"
    for m in $(sed -n 's|^[[:space:]]*\(k8s.io/[^ ]*\) => ./staging/src/.*|\1|p' "$gomod"); do
      go mod edit -replace="$m=$m@v0.${K8S_VERSION#1.}"
    done
    go get -tool "k8s.io/kubernetes/cmd/kube-apiserver@v${K8S_VERSION}" \
      || die "go get k8s.io/kubernetes/cmd/kube-apiserver@v${K8S_VERSION} failed (see above); check the Go module proxy"
  fi
  log "downloading kube-apiserver v${K8S_VERSION} modules (first time: several hundred MB)"
  go mod download || die "module download for kube-apiserver failed; check the Go module proxy"
  log "compiling kube-apiserver v${K8S_VERSION} (first time: about 4 minutes on 2 cores)"
  CGO_ENABLED=0 go build -trimpath -ldflags "-s -w \
    -X k8s.io/component-base/version.gitVersion=v${K8S_VERSION} \
    -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=${minor} \
    -X k8s.io/client-go/pkg/version.gitVersion=v${K8S_VERSION}" \
    -o "$CACHE_DIR/kube-apiserver.tmp" k8s.io/kubernetes/cmd/kube-apiserver \
    || die "compiling kube-apiserver failed (see above)"
  mv "$CACHE_DIR/kube-apiserver.tmp" "$CACHE_DIR/kube-apiserver"
}

build_etcd() {
  local dir="$ROOT/tools/etcd"
  cd "$dir"
  if ! grep -q "go.etcd.io/etcd/server/v3 v${ETCD_VERSION}" go.mod 2>/dev/null; then
    log "generating tools/etcd/go.mod for etcd v${ETCD_VERSION}"
    rm -f go.mod go.sum
    go mod init haptic.invalid/tools/etcd >/dev/null 2>&1
    go get -tool "go.etcd.io/etcd/server/v3@v${ETCD_VERSION}" \
      || die "go get go.etcd.io/etcd/server/v3@v${ETCD_VERSION} failed (see above); check the Go module proxy"
  fi
  log "compiling etcd v${ETCD_VERSION}"
  CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$CACHE_DIR/etcd.tmp" go.etcd.io/etcd/server/v3 \
    || die "compiling etcd failed (see above)"
  mv "$CACHE_DIR/etcd.tmp" "$CACHE_DIR/etcd"
}

[[ -x "$CACHE_DIR/etcd" ]] || (build_etcd)
[[ -x "$CACHE_DIR/kube-apiserver" ]] || (build_kube_apiserver)
log "control-plane binaries ready in $CACHE_DIR after $(( $(date +%s) - start )) s ($(du -sh "$CACHE_DIR" | cut -f1))"
[[ "${1:-}" == "--print-dir" ]] && echo "$CACHE_DIR"
exit 0
