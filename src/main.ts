/** Process entry: run the CLI, turn SIGINT/SIGTERM into an abort, set the exit code. */
import { runCli } from './cli/program.js';

const shutdown = new AbortController();
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    shutdown.abort(new Error(`received ${sig}`));
  });
}
// A closed pipe (`haptic crds print | head`) is not an error of ours: stop writing and exit quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}
process.exitCode = await runCli(process.argv, shutdown.signal);
