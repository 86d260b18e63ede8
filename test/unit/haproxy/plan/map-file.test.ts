import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  parseAclFile,
  parseMapFile,
  planAclChange,
  planMapChange,
  type MapEntry,
} from '../../../../src/haproxy/plan/map-file.js';

describe('parseMapFile', () => {
  it('reads key and value like HAProxy: comments and blank lines skipped, value keeps inner and trailing blanks', () => {
    const text =
      '# header\n\n  a.example.com   r1\r\nb  value with spaces  \nlonely\n\t# indented comment\n';
    assert.deepEqual(parseMapFile(text), [
      ['a.example.com', 'r1'],
      ['b', 'value with spaces  '],
      ['lonely', ''],
    ]);
  });
});

describe('parseAclFile', () => {
  it('reads one trimmed pattern per line and skips comments', () => {
    assert.deepEqual(parseAclFile('# blocked\n 192.0.2.1 \n\n198.51.100.0/24\n'), [
      '192.0.2.1',
      '198.51.100.0/24',
    ]);
  });
});

describe('planMapChange', () => {
  const cur: MapEntry[] = [
    ['a', '1'],
    ['b', '2'],
    ['c', '3'],
  ];

  it('uses set for existing keys, add for new ones and del for removed ones', () => {
    const plan = planMapChange(
      ['maps/m.map'],
      cur,
      [
        ['a', '9'],
        ['b', '2'],
        ['d', '4'],
      ],
      false,
      10,
    );
    assert.deepEqual(plan.updates, [
      { op: 'map.set', map: 'maps/m.map', key: 'a', value: '9' },
      { op: 'map.add', map: 'maps/m.map', key: 'd', value: '4' },
    ]);
    assert.deepEqual(plan.deletes, [{ op: 'map.delete', map: 'maps/m.map', key: 'c' }]);
    assert.equal(plan.summary, 'entries 1 added, 1 changed, 1 removed');
  });

  it('sends the ops once per name the map is known by', () => {
    const plan = planMapChange(
      ['./maps/m.map', 'maps/m.map'],
      cur,
      [...cur, ['d', '4']],
      false,
      10,
    );
    assert.deepEqual(
      plan.updates.map((o) => ('map' in o ? o.map : '')),
      ['./maps/m.map', 'maps/m.map'],
    );
  });

  it('ignores a reordering of an order-free map', () => {
    assert.equal(planMapChange(['m'], cur, [...cur].reverse(), false, 10).summary, '');
  });

  it('replaces an order-sensitive map when appending would not give the file order', () => {
    const plan = planMapChange(['m'], cur, [['z', '0'], ...cur], true, 10);
    assert.equal(plan.updates.length, 1);
    assert.equal(plan.updates[0]?.op, 'map.replace');
    assert.deepEqual(planMapChange(['m'], cur, [...cur, ['z', '0']], true, 10).updates, [
      { op: 'map.add', map: 'm', key: 'z', value: '0' },
    ]);
  });

  it('needs a reload for a new entry without a value, which the runtime API cannot carry', () => {
    const plan = planMapChange(['m'], cur, [...cur, ['lonely', '']], false, 10);
    assert.equal(plan.reload, 'entry lonely has no value');
    assert.deepEqual(plan.updates, []);
  });

  it('replaces the map when the diff is above the limit or keys repeat', () => {
    assert.equal(
      planMapChange(
        ['m'],
        cur,
        [
          ['x', '1'],
          ['y', '2'],
        ],
        false,
        2,
      ).updates[0]?.op,
      'map.replace',
    );
    assert.equal(
      planMapChange(['m'], cur, [...cur, ['a', '7']], false, 10).updates[0]?.op,
      'map.replace',
    );
  });
});

describe('planAclChange', () => {
  it('adds and deletes patterns without caring about their order', () => {
    const plan = planAclChange(['maps/b.acl'], ['1.1.1.1', '2.2.2.2'], ['3.3.3.3', '2.2.2.2'], 10);
    assert.deepEqual(plan.updates, [{ op: 'acl.add', acl: 'maps/b.acl', pattern: '3.3.3.3' }]);
    assert.deepEqual(plan.deletes, [{ op: 'acl.delete', acl: 'maps/b.acl', pattern: '1.1.1.1' }]);
    assert.equal(planAclChange(['a'], ['1', '2'], ['2', '1'], 10).summary, '');
  });

  it('replaces the pattern list above the limit', () => {
    const plan = planAclChange(['a'], ['1'], ['2', '3'], 2);
    assert.deepEqual(plan.updates, [{ op: 'acl.replace', acl: 'a', patterns: ['2', '3'] }]);
  });
});
