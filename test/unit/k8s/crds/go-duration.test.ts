import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '../../../../src/core/errors.js';
import { goDurationMs } from '../../../../src/k8s/crds/go-duration.js';
import { kubeDuration } from '../../../../src/k8s/crds/kube-schema.js';

describe('goDurationMs', () => {
  it('converts single and composite Go durations to milliseconds', () => {
    assert.equal(goDurationMs('15s', 'f'), 15_000);
    assert.equal(goDurationMs('500ms', 'f'), 500);
    assert.equal(goDurationMs('1m30s', 'f'), 90_000);
    assert.equal(goDurationMs('2h', 'f'), 7_200_000);
    assert.equal(goDurationMs('1.5s', 'f'), 1_500);
    assert.equal(goDurationMs('250us', 'f'), 0.25);
    assert.equal(goDurationMs('0', 'f'), 0);
  });

  it('rejects text that is not a duration, naming the field', () => {
    for (const bad of ['', '15', 's', '10 s', '-1s', '1d', '5sx']) {
      assert.throws(
        () => goDurationMs(bad, 'spec.x'),
        (err: unknown) => err instanceof InvalidArgumentError && /spec\.x/.test(err.message),
        bad,
      );
    }
  });
});

describe('the CRD duration pattern', () => {
  it('accepts exactly what goDurationMs accepts', () => {
    const pattern = new RegExp(String((kubeDuration() as { pattern?: string }).pattern), 'u');
    for (const ok of ['15s', '500ms', '1m30s', '1.5s', '.5s', '250us', '3μs', '0'])
      assert.match(ok, pattern);
    for (const bad of ['', '15', '10 s', '-1s', '1d', '5sx']) assert.doesNotMatch(bad, pattern);
  });
});
