/** Errors of list/watch, stores and their path expressions. */
import { HapticError } from '../../core/errors.js';

/** A watch stream misbehaved: an undecodable line or an ERROR event other than 410. */
export class WatchStreamError extends HapticError {
  readonly code = 'HAPTIC_ERR_K8S_WATCH';
}

/** A watch delivered nothing (not even a BOOKMARK) for longer than the inactivity timeout. */
export class WatchInactiveError extends HapticError {
  readonly code = 'HAPTIC_ERR_K8S_WATCH_INACTIVE';
  constructor(
    readonly path: string,
    readonly inactivityMs: number,
  ) {
    super(`watch ${path}: no event within ${inactivityMs} ms; reconnecting`);
  }
}

/** An informer event handler threw; the informer caught it and carried on. */
export class InformerHandlerError extends HapticError {
  readonly code = 'HAPTIC_ERR_INFORMER_HANDLER';
}
