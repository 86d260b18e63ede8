/** Errors of the REST mapper. */
import { HapticError } from '../../core/errors.js';

/** No served resource has this apiVersion and kind (the mapper never guesses a plural). */
export class UnknownKindError extends HapticError {
  readonly code = 'HAPTIC_ERR_K8S_UNKNOWN_KIND';
  constructor(
    readonly apiVersion: string,
    readonly kind: string,
  ) {
    super(
      `the API server serves no kind "${kind}" in "${apiVersion}"; check apiVersion and kind, and that its CRD is installed and Established`,
    );
  }
}
