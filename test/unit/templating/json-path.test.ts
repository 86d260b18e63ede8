import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateJsonPath } from '../../../src/templating/json-path.js';
import { TemplateConfigError } from '../../../src/templating/template-errors.js';

const OBJ = {
  metadata: { name: 'web', namespace: 'shop', labels: { 'kubernetes.io/service-name': 'web-svc' } },
  spec: { rules: [{ host: 'a.example.com' }, { host: 'b.example.com' }] },
};

describe('JSONPath subset', () => {
  it('reads dotted, bracketed, indexed and wildcard paths in every accepted spelling', () => {
    assert.deepEqual(evaluateJsonPath(OBJ, 'metadata.name'), ['web']);
    assert.deepEqual(evaluateJsonPath(OBJ, '.metadata.namespace'), ['shop']);
    assert.deepEqual(evaluateJsonPath(OBJ, '$.spec.rules[1].host'), ['b.example.com']);
    assert.deepEqual(evaluateJsonPath(OBJ, '{.spec.rules[*].host}'), [
      'a.example.com',
      'b.example.com',
    ]);
    assert.deepEqual(evaluateJsonPath(OBJ, "metadata.labels['kubernetes.io/service-name']"), [
      'web-svc',
    ]);
  });

  it('returns nothing for missing fields and out-of-range indexes', () => {
    assert.deepEqual(evaluateJsonPath(OBJ, 'metadata.uid'), []);
    assert.deepEqual(evaluateJsonPath(OBJ, 'spec.rules[5].host'), []);
  });

  it('rejects filter expressions it does not support, naming the expression', () => {
    assert.throws(
      () => evaluateJsonPath(OBJ, 'spec.rules[?(@.host)]'),
      (e: unknown) =>
        e instanceof TemplateConfigError && /spec\.rules\[\?\(@\.host\)\]/.test(e.message),
    );
  });
});
