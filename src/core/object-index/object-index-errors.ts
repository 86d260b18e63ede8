/** Errors of path expressions and composite-key lookups, shared by every store. */
import { TerminalHapticError } from '../errors.js';

/** An `indexBy`, ignore-field or field-selector expression cannot be parsed. */
export class ObjectPathError extends TerminalHapticError {
  readonly code = 'HAPTIC_ERR_OBJECT_PATH';
}

/** `getSingle` found more than one object for the keys. */
export class AmbiguousLookupError extends TerminalHapticError {
  readonly code = 'HAPTIC_ERR_STORE_AMBIGUOUS';
}
