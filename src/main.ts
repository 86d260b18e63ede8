/** Process entry: run the CLI, turn SIGINT/SIGTERM into an abort, set the exit code. */
import { runCli } from './cli/program.js';

const shutdown = new AbortController();
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    shutdown.abort(new Error(`received ${sig}`));
  });
}
process.exitCode = await runCli(process.argv, shutdown.signal);
