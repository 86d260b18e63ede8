import { X509Certificate } from 'node:crypto';

import type { RuntimeOp } from './runtime-op.js';

/** One entry of a crt-list file: `<cert> [<ssl options>] [<sni filter>…]`. */
export interface CrtListLine {
  /** The certificate path as written: HAProxy names the certificate by it. */
  readonly certPath: string;
  /** The whole entry, blanks normalised; what `add ssl crt-list` receives. */
  readonly line: string;
  /** SSL options between the brackets, as tokens (`alpn h2 ca-file certs/ca.pem …`). */
  readonly options: readonly string[];
  /** SNI filters after the options (`!name` excludes). */
  readonly filters: readonly string[];
}

/** Reads a crt-list file (blank lines and `#` comments ignored). */
export function parseCrtList(text: string): CrtListLine[] {
  const out: CrtListLine[] = [];
  for (const raw of text.split('\n')) {
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const tokens = trimmed.split(/\s+/);
    const certPath = tokens[0] ?? '';
    let i = 1;
    if (tokens[i]?.startsWith('[') === true) {
      while (i < tokens.length && tokens[i]?.endsWith(']') !== true) i++;
      i++;
    }
    const options = tokens
      .slice(1, i)
      .join(' ')
      .replace(/^\[|\]$/g, '')
      .split(' ')
      .filter((t) => t !== '');
    out.push({ certPath, line: tokens.join(' '), options, filters: tokens.slice(i) });
  }
  return out;
}

/** The DNS names a PEM certificate answers for (SAN DNS entries, else the CN), or undefined. */
export function certificateNames(pem: string): readonly string[] | undefined {
  try {
    const cert = new X509Certificate(pem);
    const san = (cert.subjectAltName ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.startsWith('DNS:'))
      .map((s) => s.slice(4).toLowerCase());
    if (san.length > 0) return san;
    const cn = /(?:^|\n)CN=([^\n]+)/.exec(cert.subject)?.[1];
    return cn === undefined ? [] : [cn.toLowerCase()];
  } catch {
    return undefined;
  }
}

/** The plan for one crt-list. */
export interface CrtListPlan {
  /** Set when only a reload can apply the change. */
  readonly reload: string | undefined;
  /** `crtlist.delete` for changed entries, then `crtlist.add` for changed and new ones. */
  readonly updates: RuntimeOp[];
  /** `crtlist.delete` for entries that are gone. */
  readonly deletes: RuntimeOp[];
  /** Certificate paths (as written) the new or changed entries use. */
  readonly usedCerts: readonly string[];
  readonly summary: string;
}

function duplicatePath(lines: readonly CrtListLine[]): string | undefined {
  const seen = new Set<string>();
  for (const l of lines) {
    if (seen.has(l.certPath)) return l.certPath;
    seen.add(l.certPath);
  }
  return undefined;
}

/**
 * Plans the runtime change of one crt-list. `add ssl crt-list` appends, and the first entry is
 * the bind's default certificate, so: a changed first entry needs a reload; otherwise the order
 * HAProxy ends up with must match the file, unless no SNI name is served by two entries (then
 * the order does not change which certificate a client gets). `namesOf` gives the names of a
 * certificate without SNI filters (undefined when unknown).
 */
export function planCrtListChange(
  names: readonly string[],
  current: readonly CrtListLine[],
  desired: readonly CrtListLine[],
  namesOf: (certPath: string) => readonly string[] | undefined,
): CrtListPlan {
  const none = (reload: string | undefined, summary = ''): CrtListPlan => ({
    reload,
    updates: [],
    deletes: [],
    usedCerts: [],
    summary,
  });
  const dup = duplicatePath(current) ?? duplicatePath(desired);
  if (dup !== undefined)
    return none(`certificate ${dup} is listed twice, entries cannot be told apart at runtime`);
  const cur = new Map(current.map((l) => [l.certPath, l]));
  const des = new Map(desired.map((l) => [l.certPath, l]));
  const removed = current.filter((l) => !des.has(l.certPath));
  const changed = desired.filter((l) => {
    const c = cur.get(l.certPath);
    return c !== undefined && c.line !== l.line;
  });
  const added = desired.filter((l) => !cur.has(l.certPath));
  if (removed.length + changed.length + added.length === 0) {
    if (current.every((l, i) => desired[i]?.certPath === l.certPath)) return none(undefined);
  }
  if (current[0]?.line !== desired[0]?.line) {
    return none(
      `the first entry (the default certificate) changed: ${current[0]?.line ?? '(none)'} -> ${desired[0]?.line ?? '(none)'}`,
    );
  }
  const moved = new Set([...changed, ...added].map((l) => l.certPath));
  const resulting = [
    ...current.filter((l) => des.has(l.certPath) && !moved.has(l.certPath)).map((l) => l.certPath),
    ...desired.filter((l) => moved.has(l.certPath)).map((l) => l.certPath),
  ];
  if (resulting.some((p, i) => desired[i]?.certPath !== p)) {
    const seen = new Set<string>();
    for (const l of desired) {
      const include = l.filters.filter((f) => !f.startsWith('!'));
      if (include.length !== l.filters.length)
        return none('entries reordered and an entry uses a negative SNI filter');
      const served = include.length > 0 ? include.map((f) => f.toLowerCase()) : namesOf(l.certPath);
      if (served === undefined)
        return none(`entries reordered and the names of ${l.certPath} are unknown`);
      for (const n of served) {
        if (seen.has(n)) return none(`entries reordered and ${n} is served by two entries`);
        seen.add(n);
      }
    }
  }
  const updates: RuntimeOp[] = [];
  const deletes: RuntimeOp[] = [];
  for (const crtList of names) {
    for (const l of changed) updates.push({ op: 'crtlist.delete', crtList, certPath: l.certPath });
    for (const l of desired) {
      if (moved.has(l.certPath)) updates.push({ op: 'crtlist.add', crtList, line: l.line });
    }
    for (const l of removed) deletes.push({ op: 'crtlist.delete', crtList, certPath: l.certPath });
  }
  const parts = [
    ...added.map((l) => `entry ${l.certPath} added`),
    ...changed.map((l) => `entry ${l.certPath} changed`),
    ...removed.map((l) => `entry ${l.certPath} removed`),
  ];
  return {
    reload: undefined,
    updates,
    deletes,
    usedCerts: [...moved],
    summary:
      parts.length > 0 ? parts.join(', ') : 'entries reordered (no SNI name is served twice)',
  };
}
