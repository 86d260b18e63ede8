import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AbortedError, DeadlineExceededError, errorCode } from '../../../../src/core/errors.js';
import { RuntimeApiClient } from '../../../../src/haproxy/runtime/runtime-api-client.js';
import {
  RuntimeSocketError,
  UnsafeRuntimeArgumentError,
} from '../../../../src/haproxy/runtime/runtime-errors.js';
import { FakeCliSocket } from './fake-cli-socket.js';

describe('RuntimeApiClient', () => {
  const fake = new FakeCliSocket();
  const client = (): RuntimeApiClient =>
    new RuntimeApiClient({ kind: 'unix', path: fake.path }, { timeoutMs: 500, connectAttempts: 1 });
  before(() => fake.listen());
  after(() => fake.close());

  it('sends one escaped command per connection and returns the answer without trailing blank lines', async () => {
    fake.received.length = 0;
    fake.responder = () => 'IP changed from 1 to 2\n\n';
    const answer = await client().command(['set', 'map', 'maps/a.map', 'k', 'a b']);
    assert.equal(answer, 'IP changed from 1 to 2');
    assert.deepEqual(fake.received, ['set map maps/a.map k a\\ b\n']);
  });

  it('prefixes every command when asked (worker commands through the master socket)', async () => {
    fake.received.length = 0;
    fake.responder = () => '\n';
    await new RuntimeApiClient({ kind: 'unix', path: fake.path }, { prefix: '@1' }).command([
      'show',
      'info',
    ]);
    assert.deepEqual(fake.received, ['@1 show info\n']);
  });

  it('never sends a command whose argument would smuggle a second command', async () => {
    fake.received.length = 0;
    await assert.rejects(
      client().command(['del', 'map', 'maps/a.map', 'k;shutdown frontend fe']),
      UnsafeRuntimeArgumentError,
    );
    await assert.rejects(
      client().command(['del', 'map', 'maps/a.map', 'k\nshutdown frontend fe']),
      UnsafeRuntimeArgumentError,
    );
    assert.deepEqual(fake.received, []);
  });

  it('splits a large payload into chunks, each ending with the blank terminator', async () => {
    fake.received.length = 0;
    fake.responder = () => '\n';
    const lines = Array.from({ length: 2000 }, (_, i) => `key-${i} value-${i}`);
    const answers = await new RuntimeApiClient(
      { kind: 'unix', path: fake.path },
      { maxChunkBytes: 8192 },
    ).payloadCommand(['add', 'map', '@3', 'maps/a.map'], lines);
    assert.ok(fake.received.length > 1);
    assert.equal(answers.length, fake.received.length);
    const sent: string[] = [];
    for (const text of fake.received) {
      assert.ok(text.startsWith('add map @3 maps/a.map <<\n'));
      assert.ok(text.endsWith('\n\n'));
      assert.ok(Buffer.byteLength(text) < 8192 + 100);
      sent.push(...text.slice('add map @3 maps/a.map <<\n'.length, -2).split('\n'));
    }
    assert.deepEqual(sent, lines);
  });

  it('refuses a one-piece payload (a certificate) larger than a chunk', async () => {
    const lines = Array.from({ length: 400 }, () => 'A'.repeat(64));
    await assert.rejects(
      new RuntimeApiClient(
        { kind: 'unix', path: fake.path },
        { maxChunkBytes: 4096 },
      ).singlePayloadCommand(['set', 'ssl', 'cert', 'c.pem'], lines),
      UnsafeRuntimeArgumentError,
    );
  });

  it('fails with a deadline error when HAProxy never answers', async () => {
    fake.responder = () => null;
    await assert.rejects(client().command(['show', 'info']), DeadlineExceededError);
  });

  it('stops waiting when its signal aborts', async () => {
    fake.responder = () => null;
    const ac = new AbortController();
    const p = new RuntimeApiClient({ kind: 'unix', path: fake.path }, { timeoutMs: 5000 }).command(
      ['show', 'info'],
      ac.signal,
    );
    setTimeout(() => {
      ac.abort();
    }, 20);
    await assert.rejects(p, AbortedError);
  });

  it('reports a socket error with a code when nothing listens', async () => {
    const c = new RuntimeApiClient(
      { kind: 'unix', path: `${fake.dir}/missing.sock` },
      { connectAttempts: 2 },
    );
    await assert.rejects(
      c.command(['show', 'info']),
      (err: unknown) =>
        err instanceof RuntimeSocketError && errorCode(err) === 'HAPTIC_ERR_RUNTIME_SOCKET',
    );
  });
});
