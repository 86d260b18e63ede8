/** Local validation of field manager names, mirroring the API server's rules. */
import { InvalidFieldManagerError } from './ssa-errors.js';

/** The API server's limit on a field manager name, in bytes (FieldManagerMaxLength). */
export const FIELD_MANAGER_MAX_BYTES = 128;

// Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]*$/u;

/**
 * Throws InvalidFieldManagerError unless `name` is a name the API server accepts for apply:
 * non-empty, at most 128 bytes, printable characters only. Checking locally turns a 422 per
 * write into one clear error at start-up.
 */
export function assertValidFieldManager(name: string): void {
  if (name.length === 0)
    throw new InvalidFieldManagerError('field manager name is required for apply');
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > FIELD_MANAGER_MAX_BYTES)
    throw new InvalidFieldManagerError(
      `field manager name "${name.slice(0, 40)}…" is ${bytes} bytes; the API server allows at most ${FIELD_MANAGER_MAX_BYTES}`,
    );
  if (!PRINTABLE.test(name))
    throw new InvalidFieldManagerError(
      `field manager name ${JSON.stringify(name)} contains non-printable characters`,
    );
}
