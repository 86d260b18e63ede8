/**
 * Benchmark runner: `npm run bench -- <name> [args...]` runs bench/<name>.bench.ts, whose default
 * export is `(args: string[], signal: AbortSignal) => Promise<void>` and prints its own figures.
 * Benchmarks are never part of the test suite.
 */
import { readdirSync } from 'node:fs';

const [name, ...args] = process.argv.slice(2);
const available = readdirSync(new URL('.', import.meta.url))
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .sort();
if (!name || !available.includes(name)) {
  process.stderr.write(
    `usage: npm run bench -- <name> [args...]\navailable benchmarks: ${available.join(', ') || '(none)'}\n`,
  );
  process.exit(2);
}
const controller = new AbortController();
process.once('SIGINT', () => {
  controller.abort();
});
const mod = (await import(`./${name}.bench.ts`)) as {
  default: (argv: string[], signal: AbortSignal) => Promise<void>;
};
await mod.default(args, controller.signal);
