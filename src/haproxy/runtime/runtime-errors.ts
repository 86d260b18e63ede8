/** Errors raised by the HAProxy runtime API and master CLI clients. */
import { HapticError, TerminalHapticError } from '../../core/errors.js';

/**
 * An argument or payload would smuggle a second command (newline, `;`, NUL, control characters,
 * or an empty payload line that ends a `<<` payload early). Never sent; retrying cannot help.
 */
export class UnsafeRuntimeArgumentError extends TerminalHapticError {
  readonly code = 'HAPTIC_ERR_RUNTIME_UNSAFE_ARGUMENT';
}

/** The socket could not be reached, or the connection broke before an answer arrived. */
export class RuntimeSocketError extends HapticError {
  readonly code = 'HAPTIC_ERR_RUNTIME_SOCKET';
}

/** HAProxy answered a runtime command with something other than the expected success reply. */
export class RuntimeCommandError extends HapticError {
  readonly code = 'HAPTIC_ERR_RUNTIME_COMMAND';
  constructor(
    readonly command: string,
    readonly answer: string,
    expected: string,
  ) {
    super(
      `runtime command "${command}" answered "${answer.trim().slice(0, 300)}", expected ${expected}`,
    );
  }
}

/** A reload through the master CLI did not produce a new worker (or HAProxy counted it as failed). */
export class ReloadFailedError extends HapticError {
  readonly code = 'HAPTIC_ERR_RELOAD_FAILED';
}
