/**
 * The client's 429 retry mechanics against a loopback HTTP server that answers 429 a given
 * number of times, then 200. (Kubernetes behaviour itself is tested against a real apiserver.)
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { KubeClient, type KubeClientOptions } from '../../../../src/k8s/client/kube-client.js';
import { AbortedError } from '../../../../src/core/errors.js';
import { TooManyRequestsError } from '../../../../src/k8s/client/kube-errors.js';

describe('KubeClient retry of 429 TooManyRequests', () => {
  let server: Server;
  let url: string;
  let rejectFirst = 0;
  let retryAfter: string | undefined = '0';
  const seen: { method: string; body: string }[] = [];

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', body });
        if (seen.length <= rejectFirst) {
          res.writeHead(429, {
            'content-type': 'application/json',
            ...(retryAfter !== undefined && { 'retry-after': retryAfter }),
          });
          res.end(
            JSON.stringify({ kind: 'Status', reason: 'TooManyRequests', message: 'slow down' }),
          );
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, attempt: seen.length }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  });

  after(async () => {
    await new Promise<void>((r) => {
      server.close(() => {
        r();
      });
    });
  });

  /** Sends one GET that ends in TooManyRequestsError; returns how many requests the server saw. */
  async function requestsUntilGivingUp(options: KubeClientOptions): Promise<number> {
    const client = new KubeClient({ server: url }, { qps: 0, ...options });
    try {
      await assert.rejects(
        client.request({ method: 'GET', path: '/api/v1/configmaps' }),
        (e: unknown) => e instanceof TooManyRequestsError && e.statusCode === 429,
      );
      return seen.length;
    } finally {
      client.close();
    }
  }

  beforeEach(() => {
    seen.length = 0;
    retryAfter = '0';
  });

  it('retries after Retry-After and returns the eventual 200, resending the body', async () => {
    rejectFirst = 2;
    const client = new KubeClient({ server: url }, { qps: 0 });
    try {
      const out = await client.request<{ ok: boolean; attempt: number }>({
        method: 'POST',
        path: '/api/v1/namespaces/x/configmaps',
        body: { metadata: { name: 'a' } },
      });
      assert.deepEqual(out, { ok: true, attempt: 3 });
      assert.equal(seen.length, 3);
      assert.deepEqual(
        seen.map((s) => s.body),
        Array(3).fill(JSON.stringify({ metadata: { name: 'a' } })),
      );
    } finally {
      client.close();
    }
  });

  it('gives up with TooManyRequestsError after maxRetries429 retries', async () => {
    rejectFirst = 100;
    assert.equal(await requestsUntilGivingUp({ maxRetries429: 2 }), 3, 'one request, two retries');
  });

  it('does not retry when maxRetries429 is 0', async () => {
    rejectFirst = 1;
    assert.equal(await requestsUntilGivingUp({ maxRetries429: 0 }), 1);
  });

  it('bounds a long Retry-After by maxRetryAfterMs', { timeout: 10_000 }, async () => {
    rejectFirst = 100;
    retryAfter = '3600';
    assert.equal(
      await requestsUntilGivingUp({ maxRetryAfterMs: 5 }),
      4,
      'one request and three bounded retries, not an hour',
    );
  });

  it('stops waiting for Retry-After when the signal aborts', { timeout: 10_000 }, async () => {
    rejectFirst = 100;
    retryAfter = '3600';
    const client = new KubeClient({ server: url }, { qps: 0 });
    try {
      const ac = new AbortController();
      const pending = client.request({
        method: 'GET',
        path: '/api/v1/configmaps',
        signal: ac.signal,
      });
      while (seen.length === 0) await new Promise((r) => setTimeout(r, 5));
      ac.abort();
      await assert.rejects(pending, AbortedError);
      assert.equal(seen.length, 1);
    } finally {
      client.close();
    }
  });
});
