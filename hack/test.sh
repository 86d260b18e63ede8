#!/usr/bin/env bash
# The whole test suite on a fresh clone: set-up (dependencies, HAProxy, control-plane binaries),
# then typecheck, lint, unit tests and integration tests (real kube-apiserver + etcd, real HAProxy).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash hack/setup.sh
npm run --silent typecheck
npm run --silent lint
npm test
