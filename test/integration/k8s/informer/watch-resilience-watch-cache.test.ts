/**
 * Acceptance, watch cache on (the production default): the cacher, not etcd, answers the
 * resumed watch, and after a kill -9 the cache starts empty at the current revision.
 */
import { after, before, describe, it } from 'node:test';
import { ControlPlane } from '../../../../src/testing/control-plane.js';
import {
  createNamespace,
  cutCompactAndResume,
  killAndRestart,
  type ScenarioContext,
} from './resilience-scenarios.js';

describe('watch resilience with the watch cache on', () => {
  let ctx: ScenarioContext;

  before(async () => {
    const cp = await ControlPlane.start({ etcdCompactionInterval: '1s' });
    ctx = { cp, writer: cp.client(), reader: cp.client(), ns: 'resilience-cached' };
    await createNamespace(ctx.writer, ctx.ns);
  });

  after(async () => {
    ctx.writer.close();
    ctx.reader.close();
    await ctx.cp.stop();
  });

  it('ends equal to a fresh list after a cut watch resumes past an etcd compaction', async () => {
    await cutCompactAndResume(ctx);
  });

  it('survives kill -9 of kube-apiserver and sees changes made right after the restart', async () => {
    await killAndRestart(ctx);
  });
});
