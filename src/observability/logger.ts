/**
 * Logger factory (pino, one JSON object per line). Loggers are created once by the process
 * entry point (or a test) and injected; components derive children with
 * `logger.child({ component })`. There is no module-level singleton.
 *
 * Secrets: the `redact` paths below censor fields that carry credentials wherever a caller puts
 * them at the top level or one level down. Event payloads logged by the commentator go through
 * its own sanitizer as well, because pino's redaction needs exact paths.
 */
import { pino, type DestinationStream, type Level, type Logger } from 'pino';

/** Log levels accepted by {@link createLogger}. */
export type LogLevel = Level | 'silent';

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** Minimum level; default `info`. */
  readonly level?: LogLevel;
  /** Name carried by every line (`name` field), e.g. `haptic-controller`. */
  readonly name?: string;
  /** Where lines go; default stdout. Tests pass an in-memory stream. */
  readonly destination?: DestinationStream;
}

/** Field names that never reach a log line with their value. */
export const REDACTED_FIELDS: readonly string[] = [
  'password',
  'token',
  'bearerToken',
  'apiKey',
  'privateKey',
  'tlsKey',
  'key',
  'cert',
  'tlsCert',
  'authorization',
  'secret',
  'credentials',
];

const REDACT_PATHS = REDACTED_FIELDS.flatMap((f) => [f, `*.${f}`]);

/** Creates a root logger. Never writes anything itself. */
export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      ...(options.name === undefined ? {} : { name: options.name }),
      redact: { paths: [...REDACT_PATHS], censor: '[REDACTED]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
      },
    },
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

/** A child logger tagged with a component name, the convention every component follows. */
export function componentLogger(parent: Logger, component: string): Logger {
  return parent.child({ component });
}
