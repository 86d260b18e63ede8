/**
 * `npm run bench -- status [decisions] [--real]`: cost of the status writer's skip decision
 * (owned-subset extraction from managedFields, lastTransitionTime carry-over, normalised
 * comparison) on an object with 5 managers x 8 conditions, answered by an in-memory requester;
 * with `--real`, also round trips of skipped and applied writes against a real kube-apiserver.
 */
import { resourcePath } from '../src/k8s/client/api-resource.js';
import type { KubeRequest } from '../src/k8s/client/kube-client.js';
import { StatusWriter } from '../src/k8s/ssa/status-writer.js';
import { ControlPlane } from '../src/testing/control-plane.js';
import { probeCrd, probeResource } from '../test/support/probe-crds.js';

const MANAGERS = 5;
const PER_MANAGER = 8;
const LTT = '2026-01-01T00:00:00Z';

const GROUP = 'bench.haptic.io';
const res = probeResource(GROUP);

function condition(m: number, i: number): Record<string, unknown> {
  return {
    type: `M${m}C${i}`,
    status: 'True',
    reason: 'Bench',
    message: `manager ${m} condition ${i}`,
  };
}

function liveObject(): Record<string, unknown> {
  const conditions: Record<string, unknown>[] = [];
  const managedFields: Record<string, unknown>[] = [];
  for (let m = 0; m < MANAGERS; m++) {
    const owned: Record<string, unknown> = {};
    for (let i = 0; i < PER_MANAGER; i++) {
      conditions.push({ ...condition(m, i), lastTransitionTime: LTT });
      owned[`k:{"type":"M${m}C${i}"}`] = {
        '.': {},
        'f:type': {},
        'f:status': {},
        'f:reason': {},
        'f:message': {},
        'f:lastTransitionTime': {},
      };
    }
    managedFields.push({
      manager: `writer-${m}`,
      operation: 'Apply',
      subresource: 'status',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { 'f:conditions': owned } },
    });
  }
  return {
    metadata: { name: 'p', namespace: 'ns', resourceVersion: '1', managedFields },
    status: { conditions },
  };
}

function percentile(sorted: number[], p: number): number {
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ??
    NaN
  );
}

export default async function bench(args: string[], signal: AbortSignal): Promise<void> {
  const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 20_000);
  const live = liveObject();
  const requester = {
    request<T>(_req: KubeRequest): Promise<T> {
      return Promise.resolve(live as T);
    },
  };
  const writer = new StatusWriter(requester, { fieldManager: 'writer-2' });
  const desired = { conditions: Array.from({ length: PER_MANAGER }, (_, i) => condition(2, i)) };
  const target = { resource: res, kind: 'Probe', namespace: 'ns', name: 'p' };
  for (let i = 0; i < 500; i++) await writer.write(target, desired);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const out = await writer.write(target, desired, { live });
    if (out.written) throw new Error('bench: expected a skip');
  }
  const perDecisionUs = ((performance.now() - t0) * 1000) / n;
  console.log(
    `status skip decision (${MANAGERS} managers x ${PER_MANAGER} conditions, in memory): ${perDecisionUs.toFixed(1)} µs/decision over ${n} decisions`,
  );
  if (!args.includes('--real') || signal.aborted) return;

  const cp = await ControlPlane.start({ crds: [probeCrd(GROUP)] }, signal);
  const client = cp.client('admin');
  try {
    console.log(`# kube-apiserver ${await cp.version(signal)}`);
    await client.request({
      method: 'POST',
      path: resourcePath(res, 'default'),
      body: { apiVersion: `${GROUP}/v1`, kind: 'Probe', metadata: { name: 'p' } },
      signal,
    });
    const realTarget = { resource: res, kind: 'Probe', namespace: 'default', name: 'p' };
    const real = new StatusWriter(client, { fieldManager: 'bench-writer' });
    const rounds = 200;
    const applied: number[] = [];
    const skipped: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const status = {
        conditions: [
          {
            type: 'Ready',
            status: i % 2 ? 'True' : 'False',
            reason: 'Bench',
            message: `round ${i}`,
          },
        ],
      };
      let t = performance.now();
      const a = await real.write(realTarget, status, { signal });
      applied.push(performance.now() - t);
      t = performance.now();
      const s = await real.write(realTarget, status, { signal });
      skipped.push(performance.now() - t);
      if (!a.written || s.written) throw new Error('bench: unexpected write outcome');
    }
    applied.sort((x, y) => x - y);
    skipped.sort((x, y) => x - y);
    console.log(
      `real apiserver, ${rounds} rounds: applied write (GET + PATCH) p50 ${percentile(applied, 50).toFixed(2)} ms p99 ${percentile(applied, 99).toFixed(2)} ms; skipped write (GET only) p50 ${percentile(skipped, 50).toFixed(2)} ms p99 ${percentile(skipped, 99).toFixed(2)} ms`,
    );
  } finally {
    client.close();
    await cp.stop();
  }
}
