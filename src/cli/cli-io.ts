/** Where CLI commands write; injectable so command tests can capture output. */
export interface CliIO {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** Standard output and standard error of the process. */
export const processIO: CliIO = {
  out: (text) => {
    process.stdout.write(text);
  },
  err: (text) => {
    process.stderr.write(text);
  },
};

/** Exit codes shared by every command. */
export const EXIT_OK = 0;
/** A check failed (validation test failed, config rejected). */
export const EXIT_FAILED = 1;
/** The command was used wrongly or its input could not be loaded. */
export const EXIT_USAGE = 2;
