import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  defaultsChain,
  defaultsOf,
  findSection,
  formatCfgArgs,
  parseCfg,
  tokenizeCfgLine,
} from '../../../../src/haproxy/plan/cfg-parser.js';

const args = (line: string): readonly string[] => tokenizeCfgLine(line).args;

describe('tokenizeCfgLine', () => {
  it('splits on blanks and drops leading and trailing blanks', () => {
    assert.deepEqual(args('  \tserver  s1\t10.0.0.1:80   id 1  '), [
      'server',
      's1',
      '10.0.0.1:80',
      'id',
      '1',
    ]);
  });

  it('ends the line at an unquoted # and keeps an escaped or quoted one', () => {
    assert.deepEqual(args('timeout client 30s # was 10s'), ['timeout', 'client', '30s']);
    assert.deepEqual(args('# only a comment'), []);
    assert.deepEqual(args('acl a path_beg /a\\#b "/c#d" \'/e#f\''), [
      'acl',
      'a',
      'path_beg',
      '/a#b',
      '/c#d',
      '/e#f',
    ]);
  });

  it('keeps blanks inside double and single quotes as one argument', () => {
    assert.deepEqual(args('http-request return string "no route here"'), [
      'http-request',
      'return',
      'string',
      'no route here',
    ]);
    assert.deepEqual(args("description 'a  b'"), ['description', 'a  b']);
  });

  it('joins adjacent quoted and unquoted parts into one argument', () => {
    assert.deepEqual(args('x "foo"bar\'baz\''), ['x', 'foobarbaz']);
  });

  it('keeps an empty quoted argument in the middle and drops one at the end, as HAProxy does', () => {
    assert.deepEqual(args('x "" y'), ['x', '', 'y']);
    assert.deepEqual(args('x y ""'), ['x', 'y']);
  });

  it('applies backslash escapes outside single quotes only', () => {
    assert.deepEqual(args('x a\\ b \\x41 "tab\\there"'), ['x', 'a b', 'A', 'tab\there']);
    assert.deepEqual(args("x 'a\\ b'"), ['x', 'a\\ b']);
  });

  it('keeps a backslash that does not start a known escape (regex classes survive)', () => {
    assert.deepEqual(args('acl r path_reg ^/item/\\d+$'), ['acl', 'r', 'path_reg', '^/item/\\d+$']);
  });

  it('flags environment variables inside double quotes only', () => {
    assert.equal(tokenizeCfgLine('server s1 "${ADDR}":80').usesEnv, true);
    assert.equal(tokenizeCfgLine("server s1 '${ADDR}':80").usesEnv, false);
    assert.equal(tokenizeCfgLine('http-request set-var(txn.x) str($x)').usesEnv, false);
    assert.equal(tokenizeCfgLine('x "\\$notavar"').usesEnv, false);
    assert.deepEqual(args('x "\\$notavar"'), ['x', '$notavar']);
  });

  it('does not continue a line ending in a backslash (2.6 has no line continuation)', () => {
    const cfg = parseCfg('defaults\n    timeout client \\\n    30s\n');
    const lines = cfg.sections[0]?.lines ?? [];
    assert.equal(lines.length, 2);
    assert.deepEqual(lines[0]?.args, ['timeout', 'client', '\\']);
    assert.deepEqual(lines[1]?.args, ['30s']);
  });

  it('gives the same arguments on the fast path and the escape-aware path', () => {
    assert.deepEqual(args('server a 1.2.3.4:80 id 1'), args('server a 1.2.3.4:80 id 1 # c'));
  });
});

describe('formatCfgArgs', () => {
  it('quotes arguments that hold blanks, quotes, # or backslashes and leaves others bare', () => {
    assert.equal(
      formatCfgArgs(['string', 'no route', '', 'a#b', 'plain']),
      'string "no route" "" "a#b" plain',
    );
  });
});

describe('parseCfg', () => {
  const text = [
    'global',
    '    maxconn 100',
    '',
    'defaults',
    '    mode http',
    'defaults base',
    '    timeout connect 1s',
    'defaults pool from base',
    '    balance random',
    'frontend fe from base',
    '    bind :80',
    'backend be1',
    '    server-template slot 1-3 0.0.0.0:0 disabled',
    '    default-server check inter 2s',
    '    server s1 10.0.0.1:80 id 1',
    '    .if defined(CANARY)',
    '    server c1 10.0.0.9:80 id 9',
    '    .endif',
    'backend be2 from pool',
    'defaults',
    'backend be3',
  ].join('\n');
  const cfg = parseCfg(text);

  it('groups lines into sections with kind, name, from and line numbers', () => {
    assert.deepEqual(
      cfg.sections.map((s) => [s.kind, s.name, s.from ?? null, s.header.lineNo]),
      [
        ['global', '', null, 1],
        ['defaults', '', null, 4],
        ['defaults', 'base', null, 6],
        ['defaults', 'pool', 'base', 8],
        ['frontend', 'fe', 'base', 10],
        ['backend', 'be1', null, 12],
        ['backend', 'be2', 'pool', 19],
        ['defaults', '', null, 20],
        ['backend', 'be3', null, 21],
      ],
    );
  });

  it('numbers repeated anonymous defaults sections so they can be matched across files', () => {
    assert.deepEqual(
      cfg.sections.filter((s) => s.kind === 'defaults').map((s) => s.key),
      ['defaults', 'defaults base', 'defaults pool', 'defaults #2'],
    );
  });

  it('keeps server-template and default-server lines as ordinary section lines', () => {
    const be1 = findSection(cfg, 'backend', 'be1');
    assert.ok(be1);
    assert.deepEqual(
      be1.lines.map((l) => l.args[0]),
      ['server-template', 'default-server', 'server', '.if', 'server', '.endif'],
    );
    assert.deepEqual(be1.lines.at(0)?.args, [
      'server-template',
      'slot',
      '1-3',
      '0.0.0.0:0',
      'disabled',
    ]);
  });

  it('records the .if nesting depth of each line', () => {
    const be1 = findSection(cfg, 'backend', 'be1');
    assert.deepEqual(
      be1?.lines.map((l) => l.condDepth),
      [0, 0, 0, 0, 1, 0],
    );
  });

  it('keeps lines before the first section in a preamble', () => {
    assert.deepEqual(
      parseCfg('maxconn 1\nglobal\n').preamble.map((l) => l.args),
      [['maxconn', '1']],
    );
  });

  it('resolves the defaults a section inherits: named by from, else the last defaults above it', () => {
    const fe = findSection(cfg, 'frontend', 'fe');
    const be1 = findSection(cfg, 'backend', 'be1');
    const be2 = findSection(cfg, 'backend', 'be2');
    const be3 = findSection(cfg, 'backend', 'be3');
    assert.equal(fe && defaultsOf(cfg, fe)?.key, 'defaults base');
    assert.equal(be1 && defaultsOf(cfg, be1)?.key, 'defaults pool');
    assert.equal(be3 && defaultsOf(cfg, be3)?.key, 'defaults #2');
    assert.deepEqual(be2 && defaultsChain(cfg, be2).map((s) => s.key), [
      'defaults base',
      'defaults pool',
    ]);
  });
});
