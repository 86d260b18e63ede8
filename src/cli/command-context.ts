/** What every command module receives when it registers itself on the program. */
import type { Command } from 'commander';
import type { CliIO } from './cli-io.js';

/** Passed to each command's `register` function. */
export interface CommandContext {
  readonly io: CliIO;
  /** Aborted on SIGINT/SIGTERM; long-running commands stop when it fires. */
  readonly signal: AbortSignal;
  /** Commands set the process exit code through this, never through process.exit. */
  readonly setExitCode: (code: number) => void;
}

/** A command module: adds one (sub)command to the program. */
export type CommandRegistrar = (program: Command, ctx: CommandContext) => void;
