/**
 * The haptic command line: one commander program, one module per command under commands/.
 * Commands never call process.exit; they set an exit code through the context.
 */
import { Command, CommanderError } from 'commander';
import { describeError } from '../core/errors.js';
import { HAPTIC_VERSION } from '../core/version.js';
import { processIO, type CliIO, EXIT_USAGE, EXIT_FAILED } from './cli-io.js';
import type { CommandContext, CommandRegistrar } from './command-context.js';
import { registerAgentCommand } from './commands/agent-command.js';
import { registerRenderCommand } from './commands/render-command.js';
import { registerCrdsCommand } from './commands/crds-command.js';
import { registerValidateCommand } from './commands/validate-command.js';
import { registerVersionCommand } from './commands/version-command.js';

/** Every command of the CLI, in the order `--help` lists them. */
const COMMANDS: readonly CommandRegistrar[] = [
  registerAgentCommand,
  registerValidateCommand,
  registerRenderCommand,
  registerCrdsCommand,
  registerVersionCommand,
];

/** Builds the program; exported for tests that inspect `--help`. */
export function buildProgram(ctx: CommandContext): Command {
  const program = new Command('haptic')
    .description(
      'HAPTIC: a template-driven HAProxy ingress controller for Kubernetes.\n' +
        'Templates render haproxy.cfg, maps, files and certificates from watched resources.',
    )
    .version(HAPTIC_VERSION, '-v, --version', 'print the version')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: ctx.io.out, writeErr: ctx.io.err });
  for (const register of COMMANDS) register(program, ctx);
  for (const cmd of program.commands)
    cmd.exitOverride().configureOutput({ writeOut: ctx.io.out, writeErr: ctx.io.err });
  return program;
}

/**
 * Runs the CLI with `argv` (as process.argv: node, script, args...) and resolves to the exit
 * code. Never throws.
 */
export async function runCli(
  argv: readonly string[],
  signal: AbortSignal,
  io: CliIO = processIO,
): Promise<number> {
  let exitCode = 0;
  const ctx: CommandContext = {
    io,
    signal,
    setExitCode: (code) => {
      exitCode = code;
    },
  };
  const program = buildProgram(ctx);
  if (argv.length <= 2) {
    program.outputHelp();
    return EXIT_USAGE;
  }
  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end through exitOverride with exit code 0.
      return err.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    io.err(`error: ${describeError(err)}\n`);
    return exitCode === 0 ? EXIT_FAILED : exitCode;
  }
}
