/**
 * Filters for values that come from tenant objects (hosts, paths, header values, annotations).
 * HAProxy's config grammar ends a directive at a newline and a comment at `#`, and quotes and
 * backslashes change how words split; a tenant value holding any of them could add a directive
 * (`lua-load`, `http-request` rules, ...). These filters either quote a value so it stays one
 * argument, or reject it outright: they never pass such characters through.
 */
import { UnsafeTenantValueError } from './template-errors.js';

// Control characters include newline, carriage return, tab, NUL and DEL.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
// Whitespace, comment start, quotes, escape character, plus control characters.
// eslint-disable-next-line no-control-regex
const UNSAFE_TOKEN = /[\s#'"\\`\u0000-\u001f\u007f]/;

function describeChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f || /\s/.test(c)
    ? `U+${code.toString(16).padStart(4, '0')}`
    : `"${c}"`;
}

function asString(value: unknown, filter: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new UnsafeTenantValueError(
    `${filter}: expected a string, got ${value === null ? 'null' : typeof value}`,
  );
}

function rejectUnsafe(value: unknown, filter: string, what: string): string {
  const s = asString(value, filter);
  if (s === '') throw new UnsafeTenantValueError(`${filter}: empty ${what}`);
  const bad = UNSAFE_TOKEN.exec(s);
  if (bad) {
    throw new UnsafeTenantValueError(
      `${filter}: ${what} ${JSON.stringify(s)} contains ${describeChar(bad[0])}; whitespace, "#", quotes, backslashes and control characters are not allowed`,
    );
  }
  return s;
}

/**
 * Quotes `value` as one HAProxy argument: single quotes (nothing inside is interpreted, not even
 * `$VAR` or `#`), an embedded `'` as `'\''`. Control characters (newline...) cannot be quoted in
 * HAProxy's grammar, so they are rejected.
 */
export function haproxyQuote(value: unknown): string {
  const s = asString(value, 'haproxy_quote');
  const bad = CONTROL.exec(s);
  if (bad) {
    throw new UnsafeTenantValueError(
      `haproxy_quote: value ${JSON.stringify(s)} contains control character ${describeChar(bad[0])}`,
    );
  }
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Returns a host name unchanged, or throws when it could break out of its argument. */
export function safeHost(value: unknown): string {
  return rejectUnsafe(value, 'safe_host', 'host');
}

/** Returns a URL path unchanged, or throws when it could break out of its argument. */
export function safePath(value: unknown): string {
  return rejectUnsafe(value, 'safe_path', 'path');
}

/** Returns a header name or value unchanged, or throws when it could break out of its argument. */
export function safeHeader(value: unknown): string {
  return rejectUnsafe(value, 'safe_header', 'header value');
}

/** The tenant escaping filters by their template name. */
export const TENANT_ESCAPING_FILTERS: Readonly<Record<string, (value: unknown) => string>> = {
  haproxy_quote: haproxyQuote,
  safe_host: safeHost,
  safe_path: safePath,
  safe_header: safeHeader,
};
