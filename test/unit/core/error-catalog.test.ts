import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = new URL('../../../', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

function codesInSource(): Set<string> {
  const codes = new Set<string>();
  for (const file of sourceFiles(join(root, 'src'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/['"`](HAPTIC_ERR_[A-Z0-9_]+)['"`]/g)) {
      codes.add(m[1]!);
    }
  }
  return codes;
}

function codesInDocs(): Set<string> {
  const docs = readFileSync(join(root, 'docs/errors.md'), 'utf8');
  return new Set([...docs.matchAll(/^## (HAPTIC_ERR_[A-Z0-9_]+)\s*$/gm)].map((m) => m[1]!));
}

describe('error catalogue', () => {
  it('documents every error code used in src/', () => {
    const documented = codesInDocs();
    const missing = [...codesInSource()].filter((c) => !documented.has(c)).sort();
    assert.deepEqual(
      missing,
      [],
      `add a "## CODE" section to docs/errors.md for: ${missing.join(', ')}`,
    );
  });

  it('documents no code that src/ no longer uses', () => {
    const used = codesInSource();
    const stale = [...codesInDocs()].filter((c) => !used.has(c)).sort();
    assert.deepEqual(stale, [], `remove stale sections from docs/errors.md: ${stale.join(', ')}`);
  });
});
