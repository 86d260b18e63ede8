import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { request } from 'node:https';
import { TLSSocket } from 'node:tls';
import type { RunningAgent } from '../../../src/haproxy/agent/start-agent.js';
import { selfSignedPem, TestEnv, TOKEN } from './support/haproxy-fixture.js';

function httpsCall(
  url: string,
  path: string,
  token?: string,
): Promise<{ status: number; body: string; fingerprint: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      {
        rejectUnauthorized: false,
        agent: false,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      },
      (res) => {
        const socket = res.socket;
        const fingerprint =
          socket instanceof TLSSocket ? socket.getPeerCertificate().fingerprint256 : '';
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body, fingerprint });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('agent API over TLS', () => {
  const env = new TestEnv();
  let agent: RunningAgent;
  let pem: string;

  before(async () => {
    pem = selfSignedPem(env.dir, 'agent.test');
    const cert = Buffer.from(pem.slice(0, pem.indexOf('-----END CERTIFICATE-----') + 26));
    const key = Buffer.from(pem.slice(pem.indexOf('-----BEGIN PRIVATE KEY-----')));
    agent = await env.startAgent({ tls: { cert, key } });
  });
  after(() => env.cleanup());

  it('serves HTTPS with the given certificate and still requires the token on /v1', async () => {
    assert.match(agent.url, /^https:/);
    const expected = new X509Certificate(pem).fingerprint256;
    const health = await httpsCall(agent.url, '/healthz');
    assert.equal(health.status, 200);
    assert.equal(health.fingerprint, expected);
    assert.equal((await httpsCall(agent.url, '/v1/state')).status, 401);
    const state = await httpsCall(agent.url, '/v1/state', TOKEN);
    assert.equal(state.status, 200);
    assert.equal(JSON.parse(state.body).baseline, 'unknown');
  });
});
