/**
 * The one error base class of the project. Every error the project throws carries a stable
 * `code` (documented in docs/errors.md) that shows up in logs, metrics and status conditions.
 */
export abstract class HapticError extends Error {
  /** Stable machine-readable code, for example HAPTIC_ERR_ABORTED. */
  abstract readonly code: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }

  /** True when retrying cannot help until the input changes (controller-runtime's TerminalError). */
  get isTerminal(): boolean {
    return false;
  }
}

/**
 * Base of errors that retrying cannot fix until the input changes (a broken template, an invalid
 * option, a missing binary): `isTerminal` is true.
 */
export abstract class TerminalHapticError extends HapticError {
  override get isTerminal(): boolean {
    return true;
  }
}

/** Thrown when a caller passes an argument or option that can never be valid. */
export class InvalidArgumentError extends TerminalHapticError {
  readonly code = 'HAPTIC_ERR_INVALID_ARGUMENT';
}

/** Thrown when an operation is cancelled through its AbortSignal. */
export class AbortedError extends HapticError {
  readonly code = 'HAPTIC_ERR_ABORTED';
  constructor(what: string, options?: { cause?: unknown }) {
    super(`${what}: aborted`, options);
  }
}

/** Thrown when an operation does not finish within its deadline. */
export class DeadlineExceededError extends HapticError {
  readonly code = 'HAPTIC_ERR_DEADLINE_EXCEEDED';
  constructor(
    what: string,
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super(`${what}: no result within ${timeoutMs} ms`, options);
  }
}

/** True when `err` is a HapticError (or duck-typed equivalent) marked terminal. */
export function isTerminal(err: unknown): boolean {
  return err instanceof HapticError && err.isTerminal;
}

/** Returns the `code` of a HapticError or Node system error, or undefined. */
export function errorCode(err: unknown): string | undefined {
  if (err instanceof HapticError) return err.code;
  if (err instanceof Error && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}

/** Human-readable one-line message of any thrown value, following `cause` chains. */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const parts: string[] = [err.message];
  let cause: unknown = err.cause;
  for (let depth = 0; cause !== undefined && depth < 5; depth++) {
    parts.push(
      cause instanceof Error
        ? cause.message
        : typeof cause === 'string'
          ? cause
          : JSON.stringify(cause),
    );
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return parts.join(': ');
}
