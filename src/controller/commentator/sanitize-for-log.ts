/**
 * Makes an event safe and small enough to log and keep in the debug history: secret-looking
 * fields and values are replaced by `[REDACTED]`, long strings are cut, deep or wide structures
 * are summarised. Returns a fresh JSON-compatible value; the input is never modified.
 *
 * Redaction is by field name (token, password, secret, credential, authorization, cert, key...)
 * and by value (PEM blocks, JWTs), so a secret put in an unexpected field name still does not
 * leak when it has a recognisable shape.
 */

/** What replaces a secret. */
export const REDACTED = '[REDACTED]';

/** Limits of {@link sanitizeForLog}. */
export interface SanitizeLimits {
  /** Longer strings are cut to this many characters plus a length note; default 512. */
  readonly maxStringLength?: number;
  /** Deeper values become `[depth limit]`; default 6. */
  readonly maxDepth?: number;
  /** Arrays and objects keep this many entries plus a count note; default 32. */
  readonly maxEntries?: number;
}

const SECRET_NAME =
  /token|passw|secret|credential|authori[sz]ation|bearer|cookie|cert|private|apikey|api_key|^key$|keypem|tlskey|keydata|sslkey/i;
const SECRET_TEXT =
  /-----BEGIN [A-Z0-9 ]+-----[\s\S]*?(?:-----END [A-Z0-9 ]+-----|$)|\beyJ[\w-]{5,}\.eyJ[\w-]{5,}\.[\w-]*/g;

/** True when a field of this name must never be logged with its value. */
export function isSecretFieldName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Replaces PEM blocks and JWTs inside free text (error messages, log messages) by REDACTED. */
export function scrubSecrets(text: string): string {
  return text.replace(SECRET_TEXT, REDACTED);
}

/** See the module comment. */
export function sanitizeForLog(value: unknown, limits: SanitizeLimits = {}): unknown {
  return walk(value, 0, {
    maxStringLength: limits.maxStringLength ?? 512,
    maxDepth: limits.maxDepth ?? 6,
    maxEntries: limits.maxEntries ?? 32,
  });
}

function walk(value: unknown, depth: number, limits: Required<SanitizeLimits>): unknown {
  if (typeof value === 'string') {
    const clean = scrubSecrets(value);
    return clean.length <= limits.maxStringLength
      ? clean
      : `${clean.slice(0, limits.maxStringLength)}… [${clean.length} chars]`;
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= limits.maxDepth) return '[depth limit]';
  if (value instanceof Error)
    return { name: value.name, message: walk(value.message, depth + 1, limits) };
  if (ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
  if (Array.isArray(value)) {
    const out: unknown[] = value.slice(0, limits.maxEntries).map((v) => walk(v, depth + 1, limits));
    if (value.length > limits.maxEntries) out.push(`… [${value.length} items]`);
    return out;
  }
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (const key of keys.slice(0, limits.maxEntries)) {
    out[key] = isSecretFieldName(key)
      ? REDACTED
      : walk((value as Record<string, unknown>)[key], depth + 1, limits);
  }
  if (keys.length > limits.maxEntries) out['…'] = `[${keys.length} keys]`;
  return out;
}
