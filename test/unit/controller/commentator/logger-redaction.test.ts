import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { createLogger } from '../../../../src/observability/logger.js';

describe('createLogger', () => {
  it('censors credential fields at the top level and one level down', () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      name: 'haptic-test',
      destination: { write: (line: string) => lines.push(line) },
    });
    logger.info(
      { password: 'p4ss', agent: { token: 't0ken', url: 'https://agent' } },
      'connecting',
    );
    logger.child({ component: 'deployer' }).info({ authorization: 'Bearer abc' }, 'calling');
    const text = lines.join('');
    for (const secret of ['p4ss', 't0ken', 'Bearer abc'])
      assert.equal(text.includes(secret), false);
    const first = JSON.parse(lines[0]!) as Record<string, unknown>;
    assert.equal(first['name'], 'haptic-test');
    assert.equal(first['level'], 'info');
    assert.deepEqual(first['agent'], { token: '[REDACTED]', url: 'https://agent' });
  });

  it('drops lines below its level', () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'warn',
      destination: { write: (l: string) => lines.push(l) },
    });
    logger.info('routine');
    logger.warn('attention');
    assert.equal(lines.length, 1);
  });
});
