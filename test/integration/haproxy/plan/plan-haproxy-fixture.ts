// Test support for the planner's integration tests: file trees and a normalised dump of the
// runtime state a client can observe. HAProxy processes come from ../support/haproxy-fixture.ts.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';

import { parseCfg } from '../../../../src/haproxy/plan/cfg-parser.js';
import { collectCfgReferences } from '../../../../src/haproxy/plan/cfg-references.js';
import { parseCrtList } from '../../../../src/haproxy/plan/crt-list-file.js';
import type { RuntimeApiClient } from '../../../../src/haproxy/runtime/runtime-api-client.js';

/** Reads the regular files under `dir` (sockets skipped) keyed by relative path. */
export function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string): void => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) files.set(relative(dir, p), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return files;
}

/** Makes the tree hold exactly `files` (the admin socket, not a regular file, stays). */
export function writeTree(dir: string, files: ReadonlyMap<string, string>): void {
  for (const path of readTree(dir).keys()) {
    if (!files.has(path)) rmSync(join(dir, path));
  }
  for (const [path, content] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

const STAT_FIELDS = [
  'pxname',
  'svname',
  'type',
  'sid',
  'addr',
  'status',
  'weight',
  'slim',
] as const;
const INFO_FIELDS = [
  'Maxconn',
  'ConnRateLimit',
  'SessRateLimit',
  'SslRateLimit',
  'CompressBpsRateLim',
];

/** A normalised runtime dump: what a client of this HAProxy can observe. */
export async function dumpRuntimeState(
  client: RuntimeApiClient,
  cfgText: string,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const info = await client.command(['show', 'info']);
  out['info'] = info.split('\n').filter((l) => INFO_FIELDS.some((f) => l.startsWith(`${f}:`)));
  // `show stat` prints a server's effective weight, which HAProxy recomputes only when the
  // server changes state: a weight set while in maintenance shows there after `ready`. Compare
  // the user weight from `show servers state` instead (what the next `ready` uses).
  const userWeight = new Map<string, string>();
  for (const l of (await client.command(['show', 'servers', 'state'])).split('\n')) {
    const f = l.split(' ');
    if (f.length > 8 && !l.startsWith('#'))
      userWeight.set(`${f[1] ?? ''}/${f[3] ?? ''}`, f[7] ?? '');
  }
  const stat = (await client.command(['show', 'stat'])).split('\n');
  const header = (stat[0] ?? '').replace(/^# /, '').split(',');
  out['stat'] = stat
    .slice(1)
    .filter((l) => l !== '')
    .map((l) => {
      const cells = l.split(',');
      // A backend's slim is its fullconn, derived from its frontends' maxconn at startup only;
      // it matters solely for minconn servers, and the planner reloads when those exist.
      const sv = cells[header.indexOf('svname')] ?? '';
      if (sv === 'BACKEND') {
        cells[header.indexOf('slim')] = '-';
        // The backend weight is the sum of effective server weights (see above).
        cells[header.indexOf('weight')] = '-';
      } else if (sv !== 'FRONTEND') {
        cells[header.indexOf('weight')] =
          userWeight.get(`${cells[header.indexOf('pxname')] ?? ''}/${sv}`) ?? '?';
      }
      return STAT_FIELDS.map((f) => cells[header.indexOf(f)] ?? '').join(' ');
    })
    .sort();
  const refs = collectCfgReferences(parseCfg(cfgText), undefined).refs;
  const seen = new Set<string>();
  for (const ref of refs) {
    const key = `${ref.use} ${ref.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (ref.use === 'map' || ref.use === 'acl') {
      const shown = (await client.command(['show', ref.use, ref.name]))
        .split('\n')
        .filter((l) => l !== '');
      const entries = shown.map((l) => l.replace(/^0x[0-9a-f]+ /, ''));
      out[key] = ref.ordered ? entries : entries.sort();
    } else if (ref.use === 'crtlist') {
      const shown = (await client.command(['show', 'ssl', 'crt-list', ref.name]))
        .split('\n')
        .filter((l) => l !== '' && !l.startsWith('#'));
      out[key] = [shown[0], ...shown.slice(1).sort()];
      for (const line of parseCrtList(shown.join('\n'))) {
        const cert = await client.command(['show', 'ssl', 'cert', line.certPath]);
        out[`cert ${line.certPath}`] = cert.split('\n').filter((l) => /^(Serial|Subject):/.test(l));
        const ca = line.options[line.options.indexOf('ca-file') + 1];
        if (line.options.includes('ca-file') && ca !== undefined) {
          const shown = await client.command(['show', 'ssl', 'ca-file', ca]);
          out[`cafile ${ca}`] = shown.split('\n').filter((l) => /Serial|Subject:/.test(l));
        }
      }
    } else if (ref.use === 'cert' && !ref.name.endsWith('/')) {
      const cert = await client.command(['show', 'ssl', 'cert', ref.name]);
      out[key] = cert.split('\n').filter((l) => /^(Serial|Subject):/.test(l));
    } else if (ref.use === 'cafile') {
      const ca = await client.command(['show', 'ssl', 'ca-file', ref.name]);
      out[key] = ca.split('\n').filter((l) => /Serial|Subject:/.test(l));
    }
  }
  return out;
}
