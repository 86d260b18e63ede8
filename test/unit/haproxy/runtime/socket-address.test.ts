import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '../../../../src/core/errors.js';
import { parseSocketAddress } from '../../../../src/haproxy/runtime/socket-address.js';

describe('socket address parsing', () => {
  it('accepts unix socket paths with or without the unix@ prefix', () => {
    assert.deepEqual(parseSocketAddress('/run/haproxy/master.sock'), {
      kind: 'unix',
      path: '/run/haproxy/master.sock',
    });
    assert.deepEqual(parseSocketAddress('unix@./admin.sock'), {
      kind: 'unix',
      path: './admin.sock',
    });
  });

  it('accepts TCP host:port, ipv4@ and bracketed IPv6', () => {
    assert.deepEqual(parseSocketAddress('127.0.0.1:9999'), {
      kind: 'tcp',
      host: '127.0.0.1',
      port: 9999,
    });
    assert.deepEqual(parseSocketAddress('ipv4@127.0.0.1:1'), {
      kind: 'tcp',
      host: '127.0.0.1',
      port: 1,
    });
    assert.deepEqual(parseSocketAddress('[::1]:9999'), { kind: 'tcp', host: '::1', port: 9999 });
  });

  it('refuses addresses that are neither', () => {
    assert.throws(() => parseSocketAddress('admin.sock'), InvalidArgumentError);
    assert.throws(() => parseSocketAddress('host:70000'), InvalidArgumentError);
  });
});
