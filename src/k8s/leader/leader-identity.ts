/** The identity an elector writes into `spec.holderIdentity`. */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** Options of leaderIdentity. */
export interface LeaderIdentityOptions {
  /** Environment to read `POD_NAME` from (default process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Fallback when `POD_NAME` is unset (default os.hostname()). */
  readonly hostname?: string;
  /**
   * Appends `_<8 hex chars>`, so several electors in one process or on one host (tests, local
   * runs) are told apart. Pods have unique names and do not need it.
   */
  readonly randomSuffix?: boolean;
}

/** `POD_NAME`, else the hostname, optionally with a random suffix. */
export function leaderIdentity(options: LeaderIdentityOptions = {}): string {
  const env = options.env ?? process.env;
  const pod = env['POD_NAME']?.trim();
  const base = pod !== undefined && pod !== '' ? pod : (options.hostname ?? hostname());
  return options.randomSuffix === true ? `${base}_${randomBytes(4).toString('hex')}` : base;
}
