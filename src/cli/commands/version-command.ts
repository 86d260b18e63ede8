/** `haptic version`: prints the version of haptic and of Node. */
import type { Command } from 'commander';
import { HAPTIC_VERSION } from '../../core/version.js';
import type { CommandContext } from '../command-context.js';

/** Registers `haptic version`. */
export function registerVersionCommand(program: Command, ctx: CommandContext): void {
  program
    .command('version')
    .description('print the haptic version')
    .option('-o, --output <format>', 'text or json', 'text')
    .action((opts: { output: string }) => {
      if (opts.output === 'json') {
        ctx.io.out(`${JSON.stringify({ version: HAPTIC_VERSION, node: process.version })}\n`);
      } else {
        ctx.io.out(`haptic ${HAPTIC_VERSION} (node ${process.version})\n`);
      }
    });
}
