import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertSafePayloadLines,
  chunkPayloadLines,
  escapeRuntimeArgument,
  formatRuntimeCommand,
  payloadLines,
} from '../../../../src/haproxy/runtime/runtime-command.js';
import { UnsafeRuntimeArgumentError } from '../../../../src/haproxy/runtime/runtime-errors.js';

describe('runtime command sanitising', () => {
  it('escapes spaces and backslashes so one argument stays one word', () => {
    assert.equal(escapeRuntimeArgument('api v2'), 'api\\ v2');
    assert.equal(escapeRuntimeArgument('^c\\.example'), '^c\\\\.example');
    assert.equal(
      formatRuntimeCommand(['set', 'map', 'maps/a.map', 'k', 'a b']),
      'set map maps/a.map k a\\ b',
    );
  });

  for (const [name, arg] of [
    ['a newline', 'k\nshow info'],
    ['a carriage return', 'k\rx'],
    ['a semicolon', 'k;del map maps/a.map x'],
    ['NUL', 'k\u0000'],
    ['an escape character', 'k\u001b'],
    ['DEL', 'k\u007f'],
    ['an empty string', ''],
  ] as const) {
    it(`refuses an argument containing ${name}`, () => {
      assert.throws(
        () => formatRuntimeCommand(['add', 'map', 'maps/a.map', arg, 'v']),
        UnsafeRuntimeArgumentError,
      );
    });
  }

  it('refuses payload lines that are empty, blank or carry line breaks or control characters', () => {
    assert.throws(() => {
      assertSafePayloadLines(['a 1', '', 'show info']);
    }, UnsafeRuntimeArgumentError);
    assert.throws(() => {
      assertSafePayloadLines(['a 1', '   ']);
    }, UnsafeRuntimeArgumentError);
    assert.throws(() => {
      assertSafePayloadLines(['a 1\nshow info']);
    }, UnsafeRuntimeArgumentError);
    assert.throws(() => {
      assertSafePayloadLines(['a\u0000']);
    }, UnsafeRuntimeArgumentError);
    assert.doesNotThrow(() => {
      assertSafePayloadLines(['key value with spaces; and semicolon', 'k\tv']);
    });
  });

  it('splits a PEM text into payload lines without blank lines', () => {
    assert.deepEqual(payloadLines('-----BEGIN X-----\r\nabc\n\n-----END X-----\n'), [
      '-----BEGIN X-----',
      'abc',
      '-----END X-----',
    ]);
  });

  it('chunks payload lines below the byte limit, keeping order and every line', () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `host-${i}.example.com be_pool_${i % 7}`);
    const chunks = chunkPayloadLines(lines, 4096);
    assert.ok(chunks.length > 1);
    for (const c of chunks) assert.ok(Buffer.byteLength(c.join('\n') + '\n') <= 4096);
    assert.deepEqual(chunks.flat(), lines);
  });

  it('refuses a single payload line longer than the chunk limit', () => {
    assert.throws(() => chunkPayloadLines(['x'.repeat(100)], 50), UnsafeRuntimeArgumentError);
  });
});
