#!/usr/bin/env bash
# The main job, until the controller runs in a cluster: set-up, then the template author's loop on the
# shipped example — run its embedded validation tests (including `haproxy -c`) and render it from
# fixtures into a directory, validated by real HAProxy.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash hack/setup.sh --no-control-plane
EXAMPLE=examples/ingress-basic
OUT="${1:-${TMPDIR:-/tmp}/haptic-demo}"
rm -rf "$OUT"
echo "== haptic validate -f $EXAMPLE/config.yaml"
npx --no-install haptic validate -f "$EXAMPLE/config.yaml"
echo
echo "== haptic render -f $EXAMPLE/config.yaml --fixtures $EXAMPLE/fixtures.yaml --out $OUT --validate"
npx --no-install haptic render -f "$EXAMPLE/config.yaml" --fixtures "$EXAMPLE/fixtures.yaml" --out "$OUT" --validate
echo
echo "rendered files:"
(cd "$OUT" && find . -type f | sort | sed 's|^\./|  |')
