/** `haptic validate`: runs the validation tests embedded in an HAProxyTemplateConfig file. */
import { InvalidArgumentError, type Command } from 'commander';
import { describeError } from '../../core/errors.js';
import { resolveHaproxyBinary } from '../../haproxy/haproxy-binary.js';
import { loadTemplateConfig } from '../../templating/load-template-config.js';
import { TemplateConfigError } from '../../templating/template-errors.js';
import { createTemplateRenderer } from '../../templating/template-renderer.js';
import {
  runValidationTests,
  type ValidationRunResult,
  type ValidationTestResult,
} from '../../templating/validation-test-runner.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from '../cli-io.js';
import type { CommandContext } from '../command-context.js';

interface ValidateOptions {
  file: string;
  test: string[];
  output: 'summary' | 'json';
  workers: number;
  dumpRendered?: string;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

function outputFormat(value: string): 'summary' | 'json' {
  if (value !== 'summary' && value !== 'json')
    throw new InvalidArgumentError('must be summary or json');
  return value;
}

function summaryLine(t: ValidationTestResult): string {
  const lines = [
    `${t.passed ? 'PASS' : 'FAIL'} ${t.name} (${t.durationMs} ms)${t.description ? ` - ${t.description}` : ''}`,
  ];
  for (const a of t.assertions) {
    if (a.passed) continue;
    lines.push(
      `     FAIL ${a.type} ${a.target}${a.description ? ` (${a.description})` : ''}: ${a.message}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The JSON document `-o json` prints. */
export function validateJson(result: ValidationRunResult): string {
  return `${JSON.stringify(
    {
      tests: result.tests.map((t) => ({
        name: t.name,
        passed: t.passed,
        durationMs: t.durationMs,
        assertions: t.assertions.map((a) => ({
          type: a.type,
          target: a.target,
          passed: a.passed,
          message: a.message,
        })),
      })),
      passed: result.passed,
      failed: result.failed,
    },
    null,
    2,
  )}\n`;
}

/** Registers `haptic validate`. */
export function registerValidateCommand(program: Command, ctx: CommandContext): void {
  program
    .command('validate')
    .description(
      'run the validation tests embedded in an HAProxyTemplateConfig file (offline, no cluster)\n' +
        'exit codes: 0 all tests passed, 1 a test failed, 2 the config or the command line is invalid',
    )
    .requiredOption('-f, --file <config.yaml>', 'HAProxyTemplateConfig YAML file')
    .option('--test <name>', 'run only this test (repeatable)', collect, [])
    .option('-o, --output <format>', 'summary or json', outputFormat, 'summary')
    .option('--workers <n>', 'tests run concurrently', positiveInt, 4)
    .option('--dump-rendered <dir>', "write each test's rendered files to <dir>/<test>/")
    .addHelpText(
      'after',
      '\nExamples:\n  haptic validate -f examples/ingress-basic/config.yaml\n  haptic validate -f config.yaml --test routes-basic -o json --dump-rendered /tmp/out\n',
    )
    .action(async (opts: ValidateOptions) => {
      let result: ValidationRunResult;
      try {
        const config = await loadTemplateConfig(opts.file, ctx.signal);
        const renderer = createTemplateRenderer(config);
        let bin: string | undefined;
        result = await runValidationTests(renderer, {
          testNames: opts.test,
          workers: opts.workers,
          haproxyBin: () => (bin ??= resolveHaproxyBinary()),
          signal: ctx.signal,
          ...(opts.dumpRendered !== undefined && { dumpDir: opts.dumpRendered }),
          ...(opts.output === 'summary' && {
            onResult: (t: ValidationTestResult) => {
              ctx.io.out(summaryLine(t));
            },
          }),
        });
      } catch (err) {
        if (err instanceof TemplateConfigError) {
          ctx.io.err(`error: ${describeError(err)}\n`);
          ctx.setExitCode(EXIT_USAGE);
          return;
        }
        throw err;
      }
      if (opts.output === 'json') ctx.io.out(validateJson(result));
      else ctx.io.out(`\n${result.passed} passed, ${result.failed} failed\n`);
      ctx.setExitCode(result.failed > 0 ? EXIT_FAILED : EXIT_OK);
    });
}
