/**
 * Go duration strings (`1m30s`, `500ms`, `2h`), the format of every duration field in the
 * project's CRDs, converted to milliseconds.
 */
import { InvalidArgumentError } from '../../core/errors.js';

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
};

const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** Milliseconds of a non-negative Go duration; throws InvalidArgumentError naming `field`. */
export function goDurationMs(text: string, field: string): number {
  if (text === '0') return 0;
  let total = 0;
  PART.lastIndex = 0;
  let matched = 0;
  while (PART.lastIndex < text.length) {
    const m = PART.exec(text);
    if (!m) break;
    total += Number(m[1]) * (UNIT_MS[m[2] ?? ''] ?? Number.NaN);
    matched = PART.lastIndex;
  }
  if (text === '' || matched !== text.length || !Number.isFinite(total))
    throw new InvalidArgumentError(
      `${field}: "${text}" is not a duration; use a Go duration such as 500ms, 15s or 1m30s`,
    );
  return total;
}
