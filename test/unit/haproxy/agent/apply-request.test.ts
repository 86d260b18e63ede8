import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { AgentBadRequestError } from '../../../../src/haproxy/agent/agent-errors.js';
import {
  parseApplyRequest,
  validateRelativePath,
} from '../../../../src/haproxy/agent/apply-request.js';

const D = createHash('sha256').update('x').digest('hex');
const file = (path: string): { path: string; digest: string; content: string } => ({
  path,
  digest: D,
  content: Buffer.from('x').toString('base64'),
});
const reason = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AgentBadRequestError) return err.reason;
    throw err;
  }
  return 'accepted';
};

describe('apply request validation', () => {
  it('accepts a well-formed request and decodes contents', () => {
    const r = parseApplyRequest({
      planId: 'p-1',
      expectedPrevPlanId: null,
      leaderEpoch: 3,
      files: [file('maps/a.map'), { path: 'haproxy.cfg', digest: D }],
      deletes: ['old.map'],
      mode: 'reload',
    });
    assert.equal(r.planId, 'p-1');
    assert.equal(r.expectedPrevPlanId, null);
    assert.equal(r.files[0]?.content?.toString(), 'x');
    assert.equal(r.files[1]?.content, undefined);
    assert.deepEqual(r.deletes, ['old.map']);
    assert.equal(r.mode, 'reload');
  });

  it('defaults mode to auto and deletes to none', () => {
    const r = parseApplyRequest({ planId: 'p', leaderEpoch: 0, files: [] });
    assert.equal(r.mode, 'auto');
    assert.deepEqual(r.deletes, []);
    assert.equal('expectedPrevPlanId' in r, false);
  });

  for (const [name, path] of [
    ['a parent segment', '../x'],
    ['a nested parent segment', 'maps/../../x'],
    ['an absolute path', '/etc/passwd'],
    ['a dot segment', './x'],
    ['an empty segment', 'maps//x'],
    ['a trailing slash', 'maps/'],
    ['a backslash', 'maps\\..\\x'],
    ['a newline', 'maps/x\n'],
    ["the agent's own directory", '.haptic-agent/state.json'],
    ['more than 255 bytes', `a/${'b'.repeat(300)}`],
  ] as const) {
    it(`refuses a path with ${name}`, () => {
      assert.equal(
        reason(() => validateRelativePath(path, 'files[0]')),
        'bad_path',
      );
    });
  }

  it('refuses unknown fields at the top and inside files', () => {
    assert.equal(
      reason(() => parseApplyRequest({ planId: 'p', leaderEpoch: 0, files: [], extra: 1 })),
      'unknown_field',
    );
    assert.equal(
      reason(() =>
        parseApplyRequest({ planId: 'p', leaderEpoch: 0, files: [{ ...file('a'), mode: 1 }] }),
      ),
      'unknown_field',
    );
  });

  it('refuses wrong types, bad digests, bad base64 and duplicate or contradictory paths', () => {
    assert.equal(
      reason(() => parseApplyRequest([])),
      'invalid_field',
    );
    assert.equal(
      reason(() => parseApplyRequest({ planId: 'p', leaderEpoch: -1, files: [] })),
      'invalid_field',
    );
    assert.equal(
      reason(() => parseApplyRequest({ planId: 'p', leaderEpoch: 1.5, files: [] })),
      'invalid_field',
    );
    assert.equal(
      reason(() => parseApplyRequest({ planId: 'p p', leaderEpoch: 1, files: [] })),
      'invalid_field',
    );
    assert.equal(
      reason(() => parseApplyRequest({ planId: 'p', leaderEpoch: 1, files: [], mode: 'fast' })),
      'invalid_field',
    );
    assert.equal(
      reason(() =>
        parseApplyRequest({ planId: 'p', leaderEpoch: 1, files: [{ path: 'a', digest: 'ABC' }] }),
      ),
      'invalid_field',
    );
    assert.equal(
      reason(() =>
        parseApplyRequest({
          planId: 'p',
          leaderEpoch: 1,
          files: [{ ...file('a'), content: 'not base64!' }],
        }),
      ),
      'invalid_field',
    );
    assert.equal(
      reason(() =>
        parseApplyRequest({ planId: 'p', leaderEpoch: 1, files: [file('a'), file('a')] }),
      ),
      'invalid_field',
    );
    assert.equal(
      reason(() =>
        parseApplyRequest({ planId: 'p', leaderEpoch: 1, files: [file('a')], deletes: ['a'] }),
      ),
      'invalid_field',
    );
  });
});
