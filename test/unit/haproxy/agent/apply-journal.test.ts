import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  readJournal,
  restoreJournal,
  writeJournal,
} from '../../../../src/haproxy/agent/apply-journal.js';

describe('apply journal', () => {
  const base = mkdtempSync(join(tmpdir(), 'haptic-journal-'));
  after(() => {
    rmSync(base, { recursive: true, force: true });
  });

  it('restores replaced files and removes created ones after the live files changed', async () => {
    mkdirSync(join(base, 'maps'));
    writeFileSync(join(base, 'haproxy.cfg'), 'old cfg');
    writeFileSync(join(base, 'maps/a.map'), 'old map');
    writeFileSync(join(base, 'gone.txt'), 'deleted by the apply');
    await writeJournal(
      base,
      'p2',
      ['maps/a.map', 'maps/new.map', 'gone.txt', 'haproxy.cfg'],
      new Set(['haproxy.cfg', 'maps/a.map', 'gone.txt']),
    );
    // The apply: renames over live paths, a new file, a delete.
    writeFileSync(join(base, 'tmp'), 'new map');
    renameSync(join(base, 'tmp'), join(base, 'maps/a.map'));
    writeFileSync(join(base, 'maps/new.map'), 'created');
    rmSync(join(base, 'gone.txt'));
    writeFileSync(join(base, 'tmp'), 'new cfg');
    renameSync(join(base, 'tmp'), join(base, 'haproxy.cfg'));

    const record = await readJournal(base);
    assert.equal(record?.planId, 'p2');
    await restoreJournal(base, record);
    assert.equal(readFileSync(join(base, 'haproxy.cfg'), 'utf8'), 'old cfg');
    assert.equal(readFileSync(join(base, 'maps/a.map'), 'utf8'), 'old map');
    assert.equal(readFileSync(join(base, 'gone.txt'), 'utf8'), 'deleted by the apply');
    assert.equal(existsSync(join(base, 'maps/new.map')), false);
    assert.equal(await readJournal(base), undefined);
  });
});
