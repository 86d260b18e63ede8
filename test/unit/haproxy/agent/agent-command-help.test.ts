import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../../../src/cli/program.js';

describe('haptic agent --help', () => {
  it('lists every flag of the agent and warns that the fault hook is test-only', async () => {
    let out = '';
    const code = await runCli(['node', 'haptic', 'agent', '--help'], new AbortController().signal, {
      out: (t) => (out += t),
      err: (t) => (out += t),
    });
    assert.equal(code, 0);
    for (const flag of [
      '--base-dir',
      '--listen',
      '--token-file',
      '--master-socket',
      '--stats-socket',
      '--start-haproxy',
      '--haproxy-bin',
      '--reload-interval-min',
      '--tls-cert',
      '--tls-key',
      '--max-body-size',
    ]) {
      assert.ok(out.includes(flag), `missing ${flag}`);
    }
    assert.match(out, /HAPTIC_AGENT_FAULT=after-rename is a TEST-ONLY/);
  });

  it('fails with a usage error when a required flag is missing', async () => {
    let err = '';
    const code = await runCli(
      ['node', 'haptic', 'agent', '--base-dir', '/tmp'],
      new AbortController().signal,
      {
        out: () => undefined,
        err: (t) => (err += t),
      },
    );
    assert.equal(code, 2);
    assert.match(err, /required option/);
  });
});
