/** Bearer-token check in constant time (the compared values are hashed to equal length first). */
import { createHash, timingSafeEqual } from 'node:crypto';

/** True when the `Authorization` header carries exactly `Bearer <token>`. */
export function bearerTokenMatches(header: string | undefined, token: string): boolean {
  if (header === undefined || token.length === 0) return false;
  const m = /^Bearer (.+)$/.exec(header);
  const given = m?.[1] ?? '';
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b) && given.length > 0;
}
