/**
 * `npm run bench -- informer [--objects N] [--concurrency C]`: creates N small ConfigMaps in a
 * real kube-apiserver (default 10,000), then times an informer's initial sync and measures the
 * heap its store retains per object, for a full store and for an on-demand (metadata-only)
 * store, plus the in-memory cost of a relist diff (nothing changed) and of a MODIFIED event.
 * Heap figures need `global.gc`, so the benchmark re-runs itself under `--expose-gc`.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { KubeClient } from '../src/k8s/client/kube-client.js';
import type { KubeObject } from '../src/k8s/client/kube-object.js';
import { ResourceClient } from '../src/k8s/client/resource-client.js';
import { Informer } from '../src/k8s/informer/informer.js';
import { metadataOnly } from '../src/k8s/informer/on-demand-store.js';
import { ControlPlane } from '../src/testing/control-plane.js';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps', namespaced: true } as const;
const NS = 'bench';

function flag(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  const v = i >= 0 ? Number(args[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/** Heap in use after full collections, letting sockets and timers of finished work settle between them. */
async function heapAfterGc(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 4; i++) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return process.memoryUsage().heapUsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function createAll(client: KubeClient, n: number, concurrency: number): Promise<void> {
  const cms = new ResourceClient(client, CONFIGMAPS);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) {
      const i = next++;
      await cms.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}`, namespace: NS, labels: { app: `app-${i % 50}` } },
        data: { host: `host-${i}.example.com`, port: String(8000 + (i % 1000)) },
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

async function syncOnce(
  client: KubeClient,
  signal: AbortSignal,
  reduce?: (o: KubeObject) => KubeObject,
): Promise<{ ms: number; bytesPerObject: number; size: number; informer: Informer }> {
  const before = await heapAfterGc();
  const ac = new AbortController();
  const onAbort = (): void => {
    ac.abort();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  const informer = Informer.forResource(client, CONFIGMAPS, {
    namespace: NS,
    indexBy: ['metadata.namespace', "metadata.labels['app']"],
    ...(reduce !== undefined && { reduce }),
  });
  const t0 = performance.now();
  const run = informer.run(ac.signal);
  await informer.waitForSync(ac.signal);
  const ms = performance.now() - t0;
  ac.abort();
  await run;
  signal.removeEventListener('abort', onAbort);
  const after = await heapAfterGc();
  const size = informer.store.size;
  // Keep the store reachable until after the measurement.
  if (informer.store.fetch(NS, 'app-1').length === 0) throw new Error('index lookup failed');
  return { ms, bytesPerObject: (after - before) / size, size, informer };
}

/** In-memory costs on a synced store: a relist diff with nothing changed, and watch events. */
function storeCosts(informer: Informer): { relistMs: number; eventUs: number } {
  const objects = informer.store.list().map((o) => structuredClone(o));
  let t = performance.now();
  informer.store.replace(objects, 'bench');
  const relistMs = performance.now() - t;
  const modified = objects.map((o) => ({
    ...o,
    metadata: { ...o.metadata, resourceVersion: `${o.metadata?.resourceVersion ?? ''}-x` },
  }));
  t = performance.now();
  for (const o of modified) informer.store.apply('MODIFIED', o);
  const eventUs = ((performance.now() - t) * 1000) / modified.length;
  return { relistMs, eventUs };
}

export default async function informerBench(args: string[], signal: AbortSignal): Promise<void> {
  if (typeof (globalThis as { gc?: unknown }).gc !== 'function') {
    // Re-run under --expose-gc so heap figures are measured after full collections.
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', 'bench/run.ts', 'informer', ...args],
      { stdio: 'inherit' },
    );
    const onAbort = (): void => {
      child.kill('SIGINT');
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    signal.removeEventListener('abort', onAbort);
    if (code !== 0) process.exitCode = code ?? 1;
    return;
  }
  const n = flag(args, '--objects', 10_000);
  const concurrency = flag(args, '--concurrency', 32);
  const cp = await ControlPlane.start({}, signal);
  const client = cp.client();
  try {
    await new ResourceClient(client, {
      group: '',
      version: 'v1',
      resource: 'namespaces',
      namespaced: false,
    }).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }, signal);
    const t0 = performance.now();
    await createAll(client, n, concurrency);
    const createMs = performance.now() - t0;
    console.log(
      `informer bench: ${n} ConfigMaps, kube-apiserver ${await cp.version(signal)}, node ${process.version}`,
    );
    console.log(
      `  create          ${(createMs / 1000).toFixed(1)} s (${Math.round(n / (createMs / 1000))}/s, concurrency ${concurrency})`,
    );
    // A warm-up sync so JIT and connection set-up do not count against the first figure.
    await syncOnce(client, signal);
    for (const [label, reduce] of [
      ['full store', undefined],
      ['on-demand (metadata only)', metadataOnly],
    ] as const) {
      // Three syncs; the median of each figure, since one heap reading can be off by a collection.
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push(await syncOnce(client, signal, reduce));
      const last = runs[runs.length - 1]!;
      const r = {
        ms: median(runs.map((x) => x.ms)),
        bytesPerObject: median(runs.map((x) => x.bytesPerObject)),
        size: last.size,
        informer: last.informer,
      };
      console.log(
        `  ${label.padEnd(26)} sync ${r.ms.toFixed(0)} ms (${Math.round(r.size / (r.ms / 1000))} objects/s), retained heap ${Math.round(r.bytesPerObject)} B/object (median of 3) (${((r.bytesPerObject * r.size) / 1024 / 1024).toFixed(1)} MiB for ${r.size})`,
      );
      if (reduce === undefined) {
        const c = storeCosts(r.informer);
        console.log(
          `  store (in memory)          relist diff, nothing changed ${c.relistMs.toFixed(0)} ms; MODIFIED event ${c.eventUs.toFixed(1)} µs each`,
        );
      }
    }
  } finally {
    client.close();
    await cp.stop();
  }
}
