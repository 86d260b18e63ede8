import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UnsafeTenantValueError } from '../../../src/templating/template-errors.js';
import {
  haproxyQuote,
  safeHeader,
  safeHost,
  safePath,
} from '../../../src/templating/tenant-escaping-filters.js';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Hostile tenant values: each tries to end the argument or the line and add a directive. */
const HOSTILE = [
  'evil.example.com\n  lua-load /tmp/x.lua',
  'evil.example.com\r\nlua-load /tmp/x.lua',
  'evil.example.com lua-load /tmp/x.lua',
  'evil.example.com\tlua-load',
  'evil.example.com#comment',
  "evil'.example.com",
  'evil".example.com',
  'evil\\.example.com',
  'evil\u0000.example.com',
  'evil\u007f.example.com',
  'evil\u000b.example.com',
];

/**
 * Splits one HAProxy config line into arguments the way HAProxy's parser does: blanks separate,
 * `'...'` is literal, `"..."` allows backslash escapes, a backslash escapes outside quotes, `#`
 * outside quotes starts a comment. Returns null when the line holds a line break.
 */
function haproxyArgs(line: string): string[] | null {
  if (/[\r\n]/.test(line)) return null;
  const args: string[] = [];
  let cur = '';
  let inArg = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ' || c === '\t') {
      if (inArg) args.push(cur);
      cur = '';
      inArg = false;
      i++;
    } else if (c === '#') {
      break;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      assert.ok(end > i, 'unterminated single quote');
      cur += line.slice(i + 1, end);
      inArg = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      while (i < line.length && line[i] !== '"') {
        if (line[i] === '\\') i++;
        cur += line[i] ?? '';
        i++;
      }
      assert.ok(i < line.length, 'unterminated double quote');
      inArg = true;
      i++;
    } else if (c === '\\') {
      cur += line[i + 1] ?? '';
      inArg = true;
      i += 2;
    } else {
      cur += c;
      inArg = true;
      i++;
    }
  }
  if (inArg) args.push(cur);
  return args;
}

describe('tenant escaping filters', () => {
  for (const [name, filter] of [
    ['safe_host', safeHost],
    ['safe_path', safePath],
    ['safe_header', safeHeader],
  ] as const) {
    it(`${name} rejects every hostile value instead of rendering it`, () => {
      for (const v of HOSTILE) {
        assert.throws(
          () => filter(v),
          UnsafeTenantValueError,
          `${name} accepted ${JSON.stringify(v)}`,
        );
      }
    });
  }

  it('safe_host, safe_path and safe_header pass ordinary values through unchanged', () => {
    assert.equal(safeHost('shop.example.com'), 'shop.example.com');
    assert.equal(safeHost('*.example.com'), '*.example.com');
    assert.equal(safePath('/api/v1/items?x=1&y=%20'), '/api/v1/items?x=1&y=%20');
    assert.equal(safeHeader('text/html;charset=utf-8'), 'text/html;charset=utf-8');
  });

  it('haproxy_quote rejects values with line breaks or other control characters', () => {
    for (const v of HOSTILE.filter((x) => CONTROL.test(x))) {
      assert.throws(
        () => haproxyQuote(v),
        UnsafeTenantValueError,
        `haproxy_quote accepted ${JSON.stringify(v)}`,
      );
    }
  });

  it('haproxy_quote keeps every printable hostile value one argument of the directive it is placed in', () => {
    const printable = [
      ...HOSTILE.filter((x) => !CONTROL.test(x)),
      "it's",
      "'; lua-load /tmp/x.lua; '",
      '$HOME ${HOME}',
      '',
    ];
    for (const v of printable) {
      const line = `  http-request set-header X-Tenant ${haproxyQuote(v)}`;
      assert.deepEqual(
        haproxyArgs(line),
        ['http-request', 'set-header', 'X-Tenant', v],
        `line: ${line}`,
      );
    }
  });
});
