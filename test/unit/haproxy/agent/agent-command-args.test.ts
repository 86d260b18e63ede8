import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '../../../../src/core/errors.js';
import { parseDurationMs, parseListen } from '../../../../src/cli/commands/agent-command.js';

describe('haptic agent arguments', () => {
  it('parses durations in ms, s and m', () => {
    assert.equal(parseDurationMs('250ms'), 250);
    assert.equal(parseDurationMs('5s'), 5000);
    assert.equal(parseDurationMs('1m'), 60000);
    assert.equal(parseDurationMs('0'), 0);
    assert.throws(() => parseDurationMs('soon'), InvalidArgumentError);
  });

  it('parses listen addresses', () => {
    assert.deepEqual(parseListen('127.0.0.1:5555'), { host: '127.0.0.1', port: 5555 });
    assert.deepEqual(parseListen(':5555'), { host: '0.0.0.0', port: 5555 });
    assert.deepEqual(parseListen('[::1]:5555'), { host: '::1', port: 5555 });
    assert.throws(() => parseListen('5555'), InvalidArgumentError);
  });
});
