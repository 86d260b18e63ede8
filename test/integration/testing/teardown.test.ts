import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { sleep } from '../../../src/core/abort.js';

const FIXTURE = new URL('../../support/fixtures/hold-control-plane.ts', import.meta.url).pathname;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts the fixture, waits for its JSON line, delivers `signal`, returns what it had started. */
async function startAndInterrupt(
  signal: NodeJS.Signals,
): Promise<{ children: number[]; dirs: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => {
      reject(new Error(`fixture exited early with ${String(code)}`));
    });
  });
  const started = JSON.parse(first) as { children: number[]; dirs: string[] };
  assert.ok(started.children.length >= 3, 'fixture started etcd, kube-apiserver and haproxy');
  for (const pid of started.children)
    assert.ok(alive(pid), `child ${pid} alive before the interrupt`);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  child.kill(signal);
  await exited;
  return started;
}

async function waitGone(
  pids: number[],
  dirs: string[],
): Promise<{ pids: number[]; dirs: string[] }> {
  for (let i = 0; i < 100; i++) {
    const left = pids.filter(alive);
    const leftDirs = dirs.filter((d) => existsSync(d));
    if (left.length === 0 && leftDirs.length === 0) return { pids: [], dirs: [] };
    await sleep(100);
  }
  return { pids: pids.filter(alive), dirs: dirs.filter((d) => existsSync(d)) };
}

describe('control-plane harness teardown', () => {
  it('leaves no etcd, kube-apiserver or haproxy process and no temp dir after SIGINT', async () => {
    const started = await startAndInterrupt('SIGINT');
    assert.deepEqual(await waitGone(started.children, started.dirs), { pids: [], dirs: [] });
  });

  it('leaves no process and no temp dir behind when the test process is killed with SIGKILL', async () => {
    const started = await startAndInterrupt('SIGKILL');
    assert.deepEqual(await waitGone(started.children, started.dirs), { pids: [], dirs: [] });
  });
});
