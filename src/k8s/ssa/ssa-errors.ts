/** Errors of the Server-Side Apply kit. */
import { HapticError, TerminalHapticError } from '../../core/errors.js';

/**
 * Thrown before any request when a field manager name can never be accepted by the API server
 * (empty, longer than 128 bytes, or holding non-printable characters).
 */
export class InvalidFieldManagerError extends TerminalHapticError {
  readonly code = 'HAPTIC_ERR_SSA_FIELD_MANAGER';
}

/** Thrown before any request when an object to apply lacks apiVersion, kind, name or namespace. */
export class InvalidApplyObjectError extends TerminalHapticError {
  readonly code = 'HAPTIC_ERR_SSA_OBJECT';
}

/**
 * Thrown by the status writer when optimistic-lock conflicts persist beyond the retry budget;
 * the caller requeues the work.
 */
export class StatusWriteConflictError extends HapticError {
  readonly code = 'HAPTIC_ERR_SSA_CONFLICT_RETRIES';
}
