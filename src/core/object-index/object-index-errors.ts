/** Errors of path expressions and composite-key lookups, shared by every store. */
import { HapticError } from '../errors.js';

/** An `indexBy`, ignore-field or field-selector expression cannot be parsed. */
export class ObjectPathError extends HapticError {
  readonly code = 'HAPTIC_ERR_OBJECT_PATH';
  override get isTerminal(): boolean {
    return true;
  }
}

/** `getSingle` found more than one object for the keys. */
export class AmbiguousLookupError extends HapticError {
  readonly code = 'HAPTIC_ERR_STORE_AMBIGUOUS';
  override get isTerminal(): boolean {
    return true;
  }
}
