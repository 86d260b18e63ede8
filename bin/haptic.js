#!/usr/bin/env node
// The haptic executable: runs the compiled build when present, otherwise the TypeScript
// sources through tsx (a development checkout before `npm run build`).
import { existsSync } from 'node:fs';

const dist = new URL('../dist/main.js', import.meta.url);
if (existsSync(dist)) {
  await import(dist.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/main.ts', import.meta.url).href);
}
