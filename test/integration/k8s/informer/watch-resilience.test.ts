/**
 * Acceptance, watch cache off: watches go straight to etcd, so resuming from a compacted
 * resourceVersion is answered with 410 and the informer must relist.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GoneError } from '../../../../src/k8s/client/kube-errors.js';
import { ControlPlane } from '../../../../src/testing/control-plane.js';
import {
  createNamespace,
  cutCompactAndResume,
  killAndRestart,
  type ScenarioContext,
} from './resilience-scenarios.js';

describe('watch resilience with the watch cache off', () => {
  let ctx: ScenarioContext;

  before(async () => {
    const cp = await ControlPlane.start({
      etcdCompactionInterval: '1s',
      apiServerArgs: ['--watch-cache=false'],
    });
    ctx = { cp, writer: cp.client(), reader: cp.client(), ns: 'resilience' };
    await createNamespace(ctx.writer, ctx.ns);
  });

  after(async () => {
    ctx.writer.close();
    ctx.reader.close();
    await ctx.cp.stop();
  });

  it('relists after a cut watch resumes from a compacted resourceVersion (410) and matches a fresh list', async () => {
    const errors = await cutCompactAndResume(ctx);
    assert.ok(
      errors.some((e) => e instanceof GoneError),
      'the stale watch was answered with 410',
    );
  });

  it('survives kill -9 of kube-apiserver and sees changes made right after the restart', async () => {
    await killAndRestart(ctx);
  });
});
