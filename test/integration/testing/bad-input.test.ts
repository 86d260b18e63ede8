import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  ControlPlaneBinariesError,
  BUILD_SCRIPT,
  resolveControlPlaneBinaries,
} from '../../../src/testing/control-plane-binaries.js';
import { ControlPlane, ControlPlaneStartError } from '../../../src/testing/control-plane.js';
import { HaproxyNotFoundError, resolveHaproxyBinary } from '../../../src/haproxy/haproxy-binary.js';

const scratch = mkdtempSync(join(tmpdir(), 'haptic-bad-input-'));
after(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('control-plane harness on bad input', () => {
  it('names the variable when TEST_ASSET_KUBE_APISERVER points at nothing', () => {
    assert.throws(
      () =>
        resolveControlPlaneBinaries({
          TEST_ASSET_KUBE_APISERVER: '/nonexistent/kube-apiserver',
          TEST_ASSET_ETCD: '/bin/true',
        }),
      (err: unknown) =>
        err instanceof ControlPlaneBinariesError &&
        /TEST_ASSET_KUBE_APISERVER \/nonexistent\/kube-apiserver is missing/.test(err.message),
    );
  });

  it('fails fast with the last log lines when a binary exits at start', async () => {
    const fake = join(scratch, 'fake-etcd');
    writeFileSync(fake, '#!/bin/sh\necho "fake etcd: unsupported flag" >&2\nexit 3\n', {
      mode: 0o755,
    });
    await assert.rejects(
      ControlPlane.start({ binaries: { etcd: fake, kubeApiserver: fake }, startTimeoutMs: 20_000 }),
      (err: unknown) =>
        err instanceof ControlPlaneStartError &&
        /etcd exited \(3\)/.test(err.message) &&
        /unsupported flag/.test(err.message),
    );
  });

  it('build script without a Go toolchain exits 1 with one line naming the fix', async () => {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>(
      (resolve) => {
        execFile(
          '/bin/bash',
          [BUILD_SCRIPT],
          // An empty cache and a PATH without go: the script must not hang or build.
          {
            env: { PATH: '/usr/bin:/bin', HOME: scratch, XDG_CACHE_HOME: join(scratch, 'cache') },
            timeout: 30_000,
          },
          (err, _stdout, stderrText) => {
            resolve({
              code: err ? ((err as { code?: number }).code ?? null) : 0,
              stderr: stderrText,
            });
          },
        );
      },
    );
    assert.equal(code, 1);
    assert.match(stderr, /error: the Go toolchain .* is needed .*KUBEBUILDER_ASSETS/);
  });
});

describe('haproxy lookup on bad input', () => {
  it('rejects a HAPROXY_BIN that is not executable, saying what to point it at', () => {
    assert.throws(
      () => resolveHaproxyBinary({ HAPROXY_BIN: join(scratch, 'nope'), PATH: '' }),
      (err: unknown) =>
        err instanceof HaproxyNotFoundError &&
        /HAPROXY_BIN=.* is not an executable file/.test(err.message),
    );
  });
});

describe('port in use', () => {
  let blocker: Server | undefined;
  after(() => {
    blocker?.close();
  });

  it('never binds the API server to a port another process holds', async () => {
    // Occupy a port and check the harness never binds to it (it probes for free ports and retries on EADDRINUSE).
    blocker = createServer();
    const busy = await new Promise<number>((resolve) => {
      blocker!.listen(0, '127.0.0.1', () => {
        resolve((blocker!.address() as { port: number }).port);
      });
    });
    const cp = await ControlPlane.start();
    try {
      assert.notEqual(new URL(cp.server).port, String(busy));
      assert.match(await cp.version(), /^v1\.\d+\.\d+/);
    } finally {
      await cp.stop();
    }
  });
});
