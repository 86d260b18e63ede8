/**
 * Finds kube-apiserver and etcd for the control-plane harness: `TEST_ASSET_KUBE_APISERVER` /
 * `TEST_ASSET_ETCD`, else `KUBEBUILDER_ASSETS` (envtest's convention), else the cache that
 * hack/build-control-plane.sh fills (building them from Go modules the first time).
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TerminalHapticError } from '../core/errors.js';

/** Thrown when the control-plane binaries cannot be found or built. */
export class ControlPlaneBinariesError extends TerminalHapticError {
  readonly code = 'HAPTIC_ERR_CONTROL_PLANE_BINARIES';
}

/** Paths of the two binaries. */
export interface ControlPlaneBinaries {
  readonly kubeApiserver: string;
  readonly etcd: string;
}

function executable(path: string, what: string): string {
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    throw new ControlPlaneBinariesError(`${what} ${path} is missing or not executable`);
  }
}

/** The build script, relative to this module in src/ or dist/. */
export const BUILD_SCRIPT = fileURLToPath(
  new URL('../../hack/build-control-plane.sh', import.meta.url),
);

/** Resolves both binaries, building them if nothing else provides them. */
export function resolveControlPlaneBinaries(
  env: NodeJS.ProcessEnv = process.env,
): ControlPlaneBinaries {
  const apiEnv = env['TEST_ASSET_KUBE_APISERVER'];
  const etcdEnv = env['TEST_ASSET_ETCD'];
  const assets = env['KUBEBUILDER_ASSETS'];
  if (apiEnv || etcdEnv || assets) {
    return {
      kubeApiserver: executable(
        apiEnv ?? join(assets ?? '', 'kube-apiserver'),
        apiEnv ? 'TEST_ASSET_KUBE_APISERVER' : 'KUBEBUILDER_ASSETS/kube-apiserver',
      ),
      etcd: executable(
        etcdEnv ?? join(assets ?? '', 'etcd'),
        etcdEnv ? 'TEST_ASSET_ETCD' : 'KUBEBUILDER_ASSETS/etcd',
      ),
    };
  }
  if (!existsSync(BUILD_SCRIPT)) {
    throw new ControlPlaneBinariesError(
      `no control-plane binaries: set KUBEBUILDER_ASSETS (or TEST_ASSET_KUBE_APISERVER and TEST_ASSET_ETCD); the build script ${BUILD_SCRIPT} is not present`,
    );
  }
  let dir: string;
  try {
    // Progress goes to stderr; only the cache directory is printed on stdout.
    dir = execFileSync('bash', [BUILD_SCRIPT, '--print-dir'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }).trim();
  } catch (err) {
    throw new ControlPlaneBinariesError(
      `building kube-apiserver and etcd with ${BUILD_SCRIPT} failed (its last lines above say why); or set KUBEBUILDER_ASSETS to prebuilt binaries`,
      { cause: err },
    );
  }
  return {
    kubeApiserver: executable(join(dir, 'kube-apiserver'), 'built kube-apiserver'),
    etcd: executable(join(dir, 'etcd'), 'built etcd'),
  };
}
