/** Converting template values to text the way templates expect. */

/**
 * Text of a template value: strings as they are, numbers and booleans via String, null and
 * undefined as '', objects and lists as JSON.
 */
export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return typeof value;
}
