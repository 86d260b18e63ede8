import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertValidFieldManager } from '../../../../src/k8s/ssa/field-manager-name.js';
import { InvalidFieldManagerError } from '../../../../src/k8s/ssa/ssa-errors.js';

describe('assertValidFieldManager', () => {
  it('accepts names up to 128 bytes with printable characters and spaces', () => {
    assertValidFieldManager('m'.repeat(128));
    assertValidFieldManager('haptic/status writer ü');
  });

  it('rejects an empty name', () => {
    assert.throws(() => {
      assertValidFieldManager('');
    }, InvalidFieldManagerError);
  });

  it('rejects 129 bytes, counting multi-byte characters by their UTF-8 length', () => {
    assert.throws(() => {
      assertValidFieldManager('m'.repeat(129));
    }, /129 bytes/);
    assert.throws(() => {
      assertValidFieldManager('ü'.repeat(65));
    }, /130 bytes/);
  });

  it('rejects control characters, tabs and newlines', () => {
    for (const bad of ['a\u0007b', 'a\tb', 'a\nb']) {
      assert.throws(
        () => {
          assertValidFieldManager(bad);
        },
        (err: unknown) => err instanceof InvalidFieldManagerError && err.isTerminal,
      );
    }
  });
});
