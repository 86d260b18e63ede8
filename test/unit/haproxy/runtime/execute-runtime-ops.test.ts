import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { executeRuntimeOps } from '../../../../src/haproxy/runtime/execute-runtime-ops.js';
import { RuntimeApiClient } from '../../../../src/haproxy/runtime/runtime-api-client.js';
import { RuntimeCommandError } from '../../../../src/haproxy/runtime/runtime-errors.js';
import { FakeCliSocket } from './fake-cli-socket.js';

describe('executeRuntimeOps', () => {
  const fake = new FakeCliSocket();
  let client: RuntimeApiClient;
  before(async () => {
    await fake.listen();
    client = new RuntimeApiClient({ kind: 'unix', path: fake.path }, { maxChunkBytes: 1024 });
  });
  after(() => fake.close());

  const firstLines = (): string[] => fake.received.map((t) => t.split('\n')[0]!);

  it('adds a server with an explicit id, then enables it and its health check', async () => {
    fake.received.length = 0;
    fake.responder = (t) => (t.startsWith('add server') ? 'New server registered.\n\n' : '\n');
    await executeRuntimeOps(client, [
      {
        op: 'server.add',
        backend: 'be',
        server: 's9',
        id: 9,
        address: '10.0.0.9',
        port: 8080,
        weight: 5,
        enabled: true,
        check: true,
        agentCheck: false,
        params: ['check', 'inter', '1s'],
      },
    ]);
    assert.deepEqual(firstLines(), [
      'add server be/s9 10.0.0.9:8080 id 9 weight 5 check inter 1s',
      'enable server be/s9',
      'enable health be/s9',
    ]);
  });

  it('brackets an IPv6 server address', async () => {
    fake.received.length = 0;
    fake.responder = (t) => (t.startsWith('add server') ? 'New server registered.\n\n' : '\n');
    await executeRuntimeOps(client, [
      {
        op: 'server.add',
        backend: 'be',
        server: 's6',
        id: 2,
        address: '::1',
        port: 80,
        weight: 1,
        enabled: false,
        check: false,
        agentCheck: false,
        params: [],
      },
    ]);
    assert.deepEqual(firstLines(), ['add server be/s6 [::1]:80 id 2 weight 1']);
  });

  it('deletes a server by drain, maintenance, then del server retried while connections remain', async () => {
    fake.received.length = 0;
    let attempts = 0;
    fake.responder = (t) => {
      if (!t.startsWith('del server')) return '\n';
      attempts++;
      return attempts < 3
        ? 'Server still has connections attached to it, cannot remove it.\n'
        : 'Server deleted.\n';
    };
    await executeRuntimeOps(client, [{ op: 'server.delete', backend: 'be', server: 's1' }], {
      drainRetryMs: 1,
    });
    assert.deepEqual(firstLines(), [
      'set server be/s1 state drain',
      'set server be/s1 state maint',
      'del server be/s1',
      'del server be/s1',
      'del server be/s1',
    ]);
  });

  it('gives up deleting a server that keeps connections past the drain deadline', async () => {
    fake.responder = (t) =>
      t.startsWith('del server')
        ? 'Server still has connections attached to it, cannot remove it.\n'
        : '\n';
    await assert.rejects(
      executeRuntimeOps(client, [{ op: 'server.delete', backend: 'be', server: 's1' }], {
        drainTimeoutMs: 20,
        drainRetryMs: 5,
      }),
      RuntimeCommandError,
    );
  });

  it('replaces a map atomically: prepare, chunked add @version, count check, commit', async () => {
    fake.received.length = 0;
    const entries = Array.from({ length: 200 }, (_, i): [string, string] => [
      `host${i}.test`,
      `be_${i}`,
    ]);
    fake.responder = (t) => {
      if (t.startsWith('prepare map')) return 'New version created: 7\n\n';
      if (t.startsWith('show map @7'))
        return `${entries.map(([k, v], i) => `0x${i} ${k} ${v}`).join('\n')}\n\n`;
      return '\n';
    };
    await executeRuntimeOps(client, [{ op: 'map.replace', map: 'maps/hosts.map', entries }]);
    const lines = firstLines();
    assert.equal(lines[0], 'prepare map maps/hosts.map');
    const adds = lines.filter((l) => l === 'add map @7 maps/hosts.map <<');
    assert.ok(adds.length > 1, 'payload was chunked');
    assert.deepEqual(lines.slice(-2), [
      'show map @7 maps/hosts.map',
      'commit map @7 maps/hosts.map',
    ]);
  });

  it('does not commit a map version that lost entries (2.6 drops oversized payloads silently)', async () => {
    fake.received.length = 0;
    fake.responder = (t) => {
      if (t.startsWith('prepare map')) return 'New version created: 2\n\n';
      if (t.startsWith('show map @2')) return '0x1 a b\n\n';
      return '\n';
    };
    await assert.rejects(
      executeRuntimeOps(client, [
        {
          op: 'map.replace',
          map: 'maps/m.map',
          entries: [
            ['a', 'b'],
            ['c', 'd'],
          ],
        },
      ]),
      RuntimeCommandError,
    );
    assert.ok(!firstLines().some((l) => l.startsWith('commit')));
  });

  it('creates an unknown certificate before setting and committing it', async () => {
    fake.received.length = 0;
    let known = false;
    fake.responder = (t) => {
      if (t.startsWith('set ssl cert'))
        return known
          ? 'Transaction created for certificate certs/n.pem!\n\n'
          : "Can't replace a certificate which is not referenced by the configuration!\n\n";
      if (t.startsWith('new ssl cert')) {
        known = true;
        return "New empty certificate store 'certs/n.pem'!\n\n";
      }
      if (t.startsWith('commit ssl cert')) return 'Committing certs/n.pem\nSuccess!\n\n';
      return '\n';
    };
    await executeRuntimeOps(client, [
      {
        op: 'cert.set',
        path: 'certs/n.pem',
        pem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n',
      },
    ]);
    assert.deepEqual(firstLines(), [
      'set ssl cert certs/n.pem <<',
      'new ssl cert certs/n.pem',
      'set ssl cert certs/n.pem <<',
      'commit ssl cert certs/n.pem',
    ]);
    assert.ok(fake.received[2]!.includes('\nAAAA\n'));
  });

  it('throws a RuntimeCommandError quoting the command and HAProxy answer on an unexpected reply', async () => {
    fake.responder = () => 'No such server.\n\n';
    await assert.rejects(
      executeRuntimeOps(client, [
        { op: 'server.set-addr', backend: 'be', server: 'zz', address: '10.0.0.1', port: 80 },
      ]),
      (err: unknown) =>
        err instanceof RuntimeCommandError &&
        err.answer.includes('No such server') &&
        err.command.includes('set server be/zz addr'),
    );
  });

  it('turns map, weight, state and maxconn ops into one command each', async () => {
    fake.received.length = 0;
    fake.responder = () => '\n';
    await executeRuntimeOps(client, [
      { op: 'map.add', map: 'maps/h.map', key: 'a.test', value: 'be a' },
      { op: 'map.set', map: 'maps/h.map', key: 'b.test', value: 'be_b' },
      { op: 'map.delete', map: 'maps/h.map', key: 'c.test' },
      { op: 'server.set-weight', backend: 'be', server: 's', weight: 7 },
      { op: 'server.set-state', backend: 'be', server: 's', state: 'maint' },
      { op: 'frontend.set-maxconn', frontend: 'fe', maxconn: 100 },
    ]);
    assert.deepEqual(firstLines(), [
      'add map maps/h.map a.test be\\ a',
      'set map maps/h.map b.test be_b',
      'del map maps/h.map c.test',
      'set weight be/s 7',
      'set server be/s state maint',
      'set maxconn frontend fe 100',
    ]);
  });
});
