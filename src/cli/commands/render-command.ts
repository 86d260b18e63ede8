/** `haptic render`: renders an HAProxyTemplateConfig from a file of Kubernetes objects. */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { describeError } from '../../core/errors.js';
import { resolveHaproxyBinary } from '../../haproxy/haproxy-binary.js';
import { validateFileSet } from '../../haproxy/validate/validate-file-set.js';
import { loadFixtures } from '../../templating/load-fixtures.js';
import { loadTemplateConfig } from '../../templating/load-template-config.js';
import { renderedFileList } from '../../templating/render-output.js';
import {
  FixturesError,
  TemplateConfigError,
  TemplateRenderError,
} from '../../templating/template-errors.js';
import { createTemplateRenderer } from '../../templating/template-renderer.js';
import { renderInputFromFixtures } from '../../templating/validation-test-runner.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from '../cli-io.js';
import type { CommandContext } from '../command-context.js';

interface RenderOptions {
  file: string;
  fixtures: string;
  out?: string;
  validate?: boolean;
}

/** Registers `haptic render`. */
export function registerRenderCommand(program: Command, ctx: CommandContext): void {
  program
    .command('render')
    .description(
      'render haproxy.cfg, maps, files and certificates from a multi-document YAML of Kubernetes objects\n' +
        'exit codes: 0 rendered (and valid), 1 rendering or haproxy -c failed, 2 invalid config, fixtures or command line',
    )
    .requiredOption('-f, --file <config.yaml>', 'HAProxyTemplateConfig YAML file')
    .requiredOption(
      '--fixtures <objects.yaml>',
      'Kubernetes objects, each routed to the watched resource with its apiVersion and kind',
    )
    .option(
      '--out <dir>',
      'write the file set below <dir> as the base dir (haproxy.cfg, maps/, certs/, crt-lists/, files/); default: haproxy.cfg to stdout',
    )
    .option('--validate', 'check the rendered file set with haproxy -c')
    .addHelpText(
      'after',
      '\nExample:\n  haptic render -f examples/ingress-basic/config.yaml --fixtures examples/ingress-basic/fixtures.yaml --out /tmp/haproxy --validate\n',
    )
    .action(async (opts: RenderOptions) => {
      let renderer;
      let fixtures;
      try {
        renderer = createTemplateRenderer(await loadTemplateConfig(opts.file, ctx.signal));
        fixtures = await loadFixtures(renderer.config, opts.fixtures, ctx.signal);
      } catch (err) {
        if (err instanceof TemplateConfigError || err instanceof FixturesError) {
          ctx.io.err(`error: ${describeError(err)}\n`);
          ctx.setExitCode(EXIT_USAGE);
          return;
        }
        throw err;
      }
      let output;
      try {
        output = renderer.render(renderInputFromFixtures(renderer, fixtures, Date.now()));
      } catch (err) {
        if (err instanceof TemplateRenderError) {
          ctx.io.err(`error: ${err.message}\n`);
          ctx.setExitCode(EXIT_FAILED);
          return;
        }
        throw err;
      }
      const layout = renderer.config.layout;
      const files = renderedFileList(output.files, layout);
      if (opts.out !== undefined) {
        for (const f of files) {
          const target = join(opts.out, f.path);
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, f.content);
          ctx.io.err(`wrote ${target}\n`);
        }
        if (output.statusPatches.length > 0) {
          const target = join(opts.out, 'status-patches.json');
          await writeFile(target, `${JSON.stringify(output.statusPatches, null, 2)}\n`);
          ctx.io.err(`wrote ${target}\n`);
        }
      } else {
        ctx.io.out(output.files.haproxyCfg);
      }
      ctx.io.err(`checksum ${output.checksum}\n`);
      if (opts.validate) {
        const result = await validateFileSet({
          haproxyBin: resolveHaproxyBinary(),
          configPath: layout.configFile,
          files: files.map((f) => ({ path: f.path, content: f.content })),
          signal: ctx.signal,
        });
        for (const e of result.errors)
          ctx.io.err(`haproxy -c: ${e.file}${e.line === null ? '' : `:${e.line}`}: ${e.message}\n`);
        for (const w of result.warnings)
          ctx.io.err(
            `haproxy -c warning: ${w.file}${w.line === null ? '' : `:${w.line}`}: ${w.message}\n`,
          );
        ctx.io.err(
          result.valid
            ? 'haproxy -c: configuration is valid\n'
            : 'haproxy -c: configuration is invalid\n',
        );
        ctx.setExitCode(result.valid ? EXIT_OK : EXIT_FAILED);
        return;
      }
      ctx.setExitCode(EXIT_OK);
    });
}
