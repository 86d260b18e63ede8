/** Errors of the HAProxy agent. */
import { HapticError, TerminalHapticError } from '../../core/errors.js';

/** Why an apply request was refused before anything changed (answered with a 4xx). */
export type BadRequestReason =
  | 'malformed_json'
  | 'unknown_field'
  | 'invalid_field'
  | 'bad_path'
  | 'digest_mismatch'
  | 'body_too_large';

/** An apply request that is malformed, unsafe or inconsistent; nothing was changed. */
export class AgentBadRequestError extends TerminalHapticError {
  readonly code = 'HAPTIC_ERR_AGENT_BAD_REQUEST';
  constructor(
    readonly reason: BadRequestReason,
    message: string,
  ) {
    super(message);
  }
}

/** The agent's state directory holds something it cannot read (corrupt state or journal). */
export class AgentStateError extends HapticError {
  readonly code = 'HAPTIC_ERR_AGENT_STATE';
}
