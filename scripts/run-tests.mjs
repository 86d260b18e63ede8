#!/usr/bin/env node
// Runs node:test suites through tsx. Node 20 does not expand --test globs, so this script lists
// the files. Usage: node scripts/run-tests.mjs <suite>... [-- extra node --test flags]
//   suites: unit (test/unit), integration (test/integration)
// Environment: TEST_CONCURRENCY (unit default 2), TEST_INTEGRATION_CONCURRENCY (default 1),
//   TEST_FILTER (substring of file paths to run).
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const sep = args.indexOf('--');
const suites = sep === -1 ? args : args.slice(0, sep);
const extra = sep === -1 ? [] : args.slice(sep + 1);
const known = { unit: 'test/unit', integration: 'test/integration' };

/** Lists *.test.ts files below dir, sorted for a stable order. */
function listTests(dir) {
  const out = [];
  const walk = (d) => {
    let entries;
    try {
      entries = readdirSync(d).sort();
    } catch {
      return;
    }
    for (const name of entries) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.test.ts')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

function runSuite(suite) {
  const dir = known[suite];
  if (!dir) {
    console.error(`unknown test suite "${suite}"; known: ${Object.keys(known).join(', ')}`);
    process.exit(2);
  }
  const filter = process.env.TEST_FILTER;
  const files = listTests(join(root, dir))
    .filter((f) => !filter || f.includes(filter))
    .map((f) => relative(root, f));
  if (files.length === 0) {
    console.error(`no test files in ${dir}${filter ? ` matching "${filter}"` : ''}`);
    return Promise.resolve(1);
  }
  const concurrency =
    suite === 'integration'
      ? (process.env.TEST_INTEGRATION_CONCURRENCY ?? '1')
      : (process.env.TEST_CONCURRENCY ?? '2');
  const nodeArgs = [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    ...extra,
    ...files,
  ];
  console.log(`# suite ${suite}: ${files.length} files`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, nodeArgs, { cwd: root, stdio: 'inherit' });
    const forward = (sig) => child.kill(sig);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

let failed = 0;
for (const suite of suites.length ? suites : ['unit']) {
  const code = await runSuite(suite);
  if (code !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
