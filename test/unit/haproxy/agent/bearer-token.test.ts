import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bearerTokenMatches } from '../../../../src/haproxy/agent/bearer-token.js';

describe('bearer token check', () => {
  it('accepts exactly "Bearer <token>"', () => {
    assert.equal(bearerTokenMatches('Bearer s3cret', 's3cret'), true);
  });

  it('refuses a missing header, another scheme, a wrong or prefixed token, and an empty configured token', () => {
    assert.equal(bearerTokenMatches(undefined, 's3cret'), false);
    assert.equal(bearerTokenMatches('Basic s3cret', 's3cret'), false);
    assert.equal(bearerTokenMatches('Bearer s3cre', 's3cret'), false);
    assert.equal(bearerTokenMatches('Bearer s3cretX', 's3cret'), false);
    assert.equal(bearerTokenMatches('Bearer ', ''), false);
  });
});
