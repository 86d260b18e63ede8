/**
 * Runs the embedded validation tests of a config: render each test's fixtures, evaluate its
 * assertions, and report. Tests run through a concurrency-limited pool: rendering is CPU work on
 * this thread, while `haproxy -c` runs as child processes that overlap.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { throwIfAborted } from '../core/abort.js';
import { describeError } from '../core/errors.js';
import { validateFileSet } from '../haproxy/validate/validate-file-set.js';
import { FixtureStore } from './fixture-store.js';
import { HAPROXY_PODS_FIXTURE } from './parse-template-config.js';
import { renderedFileList, type RenderOutput } from './render-output.js';
import { runAssertion, type AssertionResult } from './run-assertion.js';
import type { ResourceStore } from './resource-store.js';
import type { ValidationTestConfig } from './template-config.js';
import { TemplateConfigError, TemplateRenderError } from './template-errors.js';
import type { RenderInput, TemplateRenderer } from './template-renderer.js';

/** The result of one validation test. */
export interface ValidationTestResult {
  readonly name: string;
  readonly description: string;
  readonly passed: boolean;
  readonly durationMs: number;
  readonly assertions: readonly AssertionResult[];
}

/** Results of a run. */
export interface ValidationRunResult {
  readonly tests: readonly ValidationTestResult[];
  readonly passed: number;
  readonly failed: number;
}

/** Options of {@link runValidationTests}. */
export interface ValidationRunOptions {
  /** Run only these tests (all when empty); an unknown name is a TemplateConfigError. */
  readonly testNames?: readonly string[];
  /** Tests in flight at once (default 4). */
  readonly workers?: number;
  /** Resolves the haproxy binary on first use (only `haproxy_valid` needs it). */
  readonly haproxyBin?: () => string;
  /** Writes each test's rendered files under `<dir>/<test name>/`. */
  readonly dumpDir?: string;
  /** `now` of every render (epoch ms); fixed by default so test output is reproducible. */
  readonly now?: number;
  readonly signal?: AbortSignal;
  /** Called as each test finishes (progress output). */
  readonly onResult?: (result: ValidationTestResult) => void;
}

/** Default render time of tests: fixed so condition timestamps in test output never change. */
export const TEST_RENDER_NOW = Date.UTC(2025, 0, 1);

/** Builds the render input of fixtures keyed by watched resource name (plus `haproxy-pods`). */
export function renderInputFromFixtures(
  renderer: TemplateRenderer,
  fixtures: Readonly<Record<string, readonly object[]>>,
  now: number,
  extraContext?: Readonly<Record<string, unknown>>,
): RenderInput {
  const stores: Record<string, ResourceStore> = {};
  for (const [name, w] of Object.entries(renderer.config.watchedResources)) {
    stores[name] = new FixtureStore(name, fixtures[name] ?? [], w.indexBy);
  }
  return {
    stores,
    haproxyPods: new FixtureStore(HAPROXY_PODS_FIXTURE, fixtures[HAPROXY_PODS_FIXTURE] ?? [], [
      'metadata.namespace',
      'metadata.name',
    ]),
    now,
    ...(extraContext && { extraContext }),
  };
}

/** Writes a render's files (and status patches) below `dir`, laid out like the base directory. */
export async function dumpRendered(
  dir: string,
  renderer: TemplateRenderer,
  output: RenderOutput,
): Promise<void> {
  for (const f of renderedFileList(output.files, renderer.config.layout)) {
    const target = join(dir, f.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, f.content);
  }
  if (output.statusPatches.length > 0) {
    await writeFile(
      join(dir, 'status-patches.json'),
      `${JSON.stringify(output.statusPatches, null, 2)}\n`,
    );
  }
}

async function runOne(
  renderer: TemplateRenderer,
  name: string,
  test: ValidationTestConfig,
  opts: ValidationRunOptions,
): Promise<ValidationTestResult> {
  const started = performance.now();
  const input = renderInputFromFixtures(
    renderer,
    test.fixtures,
    opts.now ?? TEST_RENDER_NOW,
    test.extraContext,
  );
  let output: RenderOutput | null = null;
  let error: TemplateRenderError | null = null;
  try {
    output = renderer.render(input);
  } catch (err) {
    if (!(err instanceof TemplateRenderError)) throw err;
    error = err;
  }
  if (opts.dumpDir && output) {
    await dumpRendered(join(opts.dumpDir, name.replace(/[^A-Za-z0-9._-]/g, '_')), renderer, output);
  }
  let check: Promise<{ valid: boolean; message: string }> | null = null;
  const haproxyCheck = (): Promise<{ valid: boolean; message: string }> => {
    check ??= (async () => {
      if (!output) return { valid: false, message: 'nothing rendered' };
      if (!opts.haproxyBin) return { valid: false, message: 'no haproxy binary configured' };
      const layout = renderer.config.layout;
      const result = await validateFileSet({
        haproxyBin: opts.haproxyBin(),
        configPath: layout.configFile,
        files: renderedFileList(output.files, layout).map((f) => ({
          path: f.path,
          content: f.content,
        })),
        ...(opts.signal && { signal: opts.signal }),
      });
      if (result.valid)
        return {
          valid: true,
          message: `haproxy -c accepted the config (${Math.round(result.durationMs)} ms)`,
        };
      const errors = result.errors.map(
        (e) => `${e.file}${e.line === null ? '' : `:${e.line}`}: ${e.message}`,
      );
      return { valid: false, message: `haproxy -c rejected the config: ${errors.join('; ')}` };
    })();
    return check;
  };
  const subject = {
    output,
    error,
    context: () => renderer.contextSnapshot(input),
    haproxyCheck,
    renderAgain: () => renderer.render(input),
  };
  const assertions: AssertionResult[] = [];
  for (const a of test.assertions) {
    throwIfAborted(opts.signal, `validation test ${name}`);
    assertions.push(await runAssertion(a, subject));
  }
  if (test.assertions.length === 0 && error) {
    assertions.push({
      type: 'render',
      target: 'haproxy.cfg',
      passed: false,
      message: `rendering failed: ${error.message}`,
    });
  }
  return {
    name,
    description: test.description,
    passed: assertions.every((a) => a.passed),
    durationMs: Math.round((performance.now() - started) * 10) / 10,
    assertions,
  };
}

/** Runs the selected validation tests of `renderer.config` and returns results in name order. */
export async function runValidationTests(
  renderer: TemplateRenderer,
  opts: ValidationRunOptions = {},
): Promise<ValidationRunResult> {
  const all = renderer.config.validationTests;
  const wanted =
    opts.testNames && opts.testNames.length > 0
      ? [...new Set(opts.testNames)]
      : Object.keys(all).sort();
  const unknown = wanted.filter((n) => !(n in all));
  if (unknown.length > 0) {
    throw new TemplateConfigError(
      `unknown validation test(s): ${unknown.join(', ')} (defined: ${Object.keys(all).sort().join(', ') || 'none'})`,
    );
  }
  const workers = Math.max(1, Math.floor(opts.workers ?? 4));
  const results = new Map<string, ValidationTestResult>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < wanted.length) {
      throwIfAborted(opts.signal, 'validation tests');
      const name = wanted[next++] ?? '';
      const test = all[name];
      if (!test) continue;
      let result: ValidationTestResult;
      try {
        result = await runOne(renderer, name, test, opts);
      } catch (err) {
        throwIfAborted(opts.signal, 'validation tests');
        result = {
          name,
          description: test.description,
          passed: false,
          durationMs: 0,
          assertions: [
            { type: 'render', target: 'haproxy.cfg', passed: false, message: describeError(err) },
          ],
        };
      }
      results.set(name, result);
      opts.onResult?.(result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, wanted.length) }, () => worker()));
  const tests = wanted
    .map((n) => results.get(n))
    .filter((r): r is ValidationTestResult => r !== undefined);
  const passed = tests.filter((t) => t.passed).length;
  return { tests, passed, failed: tests.length - passed };
}
