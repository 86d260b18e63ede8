#!/usr/bin/env node
// The haptic executable. It runs the compiled build (dist/) when that is present and at least as
// new as every file under src/; otherwise (a development checkout, or sources edited since the
// last `npm run build`) it runs the TypeScript sources through tsx, so it is never stale.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = new URL('../dist/main.js', import.meta.url);
const src = fileURLToPath(new URL('../src', import.meta.url));

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${entry.name}`;
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const distIsCurrent =
  existsSync(dist) && (!existsSync(src) || statSync(dist).mtimeMs >= newestMtime(src));
if (distIsCurrent) {
  await import(dist.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/main.ts', import.meta.url).href);
}
