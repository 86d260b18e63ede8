/**
 * How long to wait before retrying a 429 TooManyRequests: the server's `Retry-After` (seconds,
 * or an HTTP date), bounded so a hostile or confused server cannot park a caller for minutes.
 */

/** Default wait when a 429 carries no usable `Retry-After`, ms (client-go waits 1 s too). */
export const DEFAULT_RETRY_AFTER_MS = 1000;

/**
 * The wait in ms for `header` (undefined: absent), clamped to `[0, maxMs]`; `nowMs` is the
 * wall clock for the HTTP-date form.
 */
export function retryAfterMs(
  header: string | undefined,
  maxMs: number,
  nowMs: number = Date.now(),
): number {
  let ms = DEFAULT_RETRY_AFTER_MS;
  const value = header?.trim();
  if (value !== undefined && value !== '') {
    if (/^\d+$/.test(value)) ms = Number(value) * 1000;
    else {
      const at = Date.parse(value);
      if (!Number.isNaN(at)) ms = at - nowMs;
    }
  }
  return Math.min(Math.max(ms, 0), maxMs);
}
