import {
  defaultsChain,
  formatCfgArgs,
  type CfgLine,
  type CfgSection,
  type ParsedCfg,
} from './cfg-parser.js';
import type { PlanCollector } from './plan-collector.js';
import { isRuntimeServerLine, planBackendServers } from './plan-servers.js';
import type { GlobalSetRateLimitOp } from './runtime-op.js';

/** At most this many line differences are listed per section. */
const LINES_PER_SECTION = 5;
/** Above this many cells the line diff only reports the first difference. */
const LCS_LIMIT = 4_000_000;

const RATE_LIMITS: Readonly<Record<string, GlobalSetRateLimitOp['kind']>> = {
  maxconnrate: 'connections',
  maxsessrate: 'sessions',
  maxsslrate: 'ssl-sessions',
  maxcomprate: 'http-compression',
};

/** True for a line whose change the planner may turn into runtime commands. */
function isRuntimeLine(section: CfgSection, line: CfgLine): boolean {
  if (line.condDepth !== 0 || line.usesEnv) return false;
  const kw = line.args[0] ?? '';
  if (section.kind === 'backend' || section.kind === 'listen') {
    if (isRuntimeServerLine(line)) return true;
  }
  if ((section.kind === 'frontend' || section.kind === 'listen') && kw === 'maxconn') return true;
  if (section.kind === 'global' && (kw === 'maxconn' || kw in RATE_LIMITS)) return true;
  return false;
}

function lineKey(line: CfgLine): string {
  return line.key;
}

type Edit =
  | { kind: 'same'; a: CfgLine; b: CfgLine }
  | { kind: 'del'; a: CfgLine }
  | { kind: 'add'; b: CfgLine };

/** Line diff (longest common subsequence after trimming the common head and tail). */
function diffLines(a: readonly CfgLine[], b: readonly CfgLine[]): Edit[] | undefined {
  let head = 0;
  while (
    head < a.length &&
    head < b.length &&
    lineKey(a[head] as CfgLine) === lineKey(b[head] as CfgLine)
  )
    head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    lineKey(a[a.length - 1 - tail] as CfgLine) === lineKey(b[b.length - 1 - tail] as CfgLine)
  ) {
    tail++;
  }
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  if ((am.length + 1) * (bm.length + 1) > LCS_LIMIT) return undefined;
  const w = bm.length + 1;
  const table = new Uint32Array((am.length + 1) * w);
  for (let i = am.length - 1; i >= 0; i--) {
    for (let j = bm.length - 1; j >= 0; j--) {
      table[i * w + j] =
        lineKey(am[i] as CfgLine) === lineKey(bm[j] as CfgLine)
          ? (table[(i + 1) * w + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * w + j] ?? 0, table[i * w + j + 1] ?? 0);
    }
  }
  const edits: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < am.length || j < bm.length) {
    const x = am[i];
    const y = bm[j];
    if (x !== undefined && y !== undefined && lineKey(x) === lineKey(y)) {
      edits.push({ kind: 'same', a: x, b: y });
      i++;
      j++;
    } else if (
      x !== undefined &&
      (y === undefined || (table[(i + 1) * w + j] ?? 0) >= (table[i * w + j + 1] ?? 0))
    ) {
      // Removals first, so a removal followed by an addition reads as one changed line.
      edits.push({ kind: 'del', a: x });
      i++;
    } else if (y !== undefined) {
      edits.push({ kind: 'add', b: y });
      j++;
    }
  }
  return edits;
}

/** Describes the differing lines of a section, one reason per change, at most LINES_PER_SECTION. */
function describeLineChanges(
  label: string,
  a: readonly CfgLine[],
  b: readonly CfgLine[],
): string[] {
  const edits = diffLines(a, b);
  if (edits === undefined) {
    return [`haproxy.cfg: ${label}: ${String(Math.abs(a.length - b.length))} or more lines differ`];
  }
  const reasons: string[] = [];
  for (let k = 0; k < edits.length; k++) {
    const e = edits[k];
    if (e === undefined || e.kind === 'same') continue;
    const next = edits[k + 1];
    if (e.kind === 'del' && next?.kind === 'add') {
      reasons.push(
        `haproxy.cfg: ${label}: line ${String(next.b.lineNo)} changed: ${formatCfgArgs(e.a.args)} -> ${formatCfgArgs(next.b.args)}`,
      );
      k++;
    } else if (e.kind === 'del') {
      reasons.push(
        `haproxy.cfg: ${label}: line removed (was ${String(e.a.lineNo)}): ${formatCfgArgs(e.a.args)}`,
      );
    } else {
      reasons.push(
        `haproxy.cfg: ${label}: line ${String(e.b.lineNo)} added: ${formatCfgArgs(e.b.args)}`,
      );
    }
  }
  if (reasons.length > LINES_PER_SECTION) {
    const rest = reasons.length - LINES_PER_SECTION;
    return [
      ...reasons.slice(0, LINES_PER_SECTION),
      `haproxy.cfg: ${label}: and ${String(rest)} more changed lines`,
    ];
  }
  return reasons;
}

function lastNumber(section: CfgSection, keyword: string): number | undefined | 'invalid' {
  let value: number | undefined | 'invalid';
  for (const line of section.lines) {
    if (line.args[0] !== keyword || line.condDepth !== 0) continue;
    const text = line.args[1] ?? '';
    value = /^\d+$/.test(text) ? Number(text) : 'invalid';
  }
  return value;
}

/** True when some server or default-server line uses `minconn` (dynamic limits from fullconn). */
function usesMinconn(cfg: ParsedCfg): boolean {
  return cfg.sections.some((s) =>
    s.lines.some(
      (l) =>
        (l.args[0] === 'server' || l.args[0] === 'default-server') && l.args.includes('minconn'),
    ),
  );
}

/** The frontends whose connection limit comes from the global maxconn (no maxconn of their own). */
function frontendsWithoutMaxconn(cfg: ParsedCfg): string[] {
  return cfg.sections
    .filter((s) => s.kind === 'frontend' || s.kind === 'listen')
    .filter(
      (s) =>
        ![...defaultsChain(cfg, s), s].some((x) => x.lines.some((l) => l.args[0] === 'maxconn')),
    )
    .map((s) => s.label);
}

function planLimits(
  desired: ParsedCfg,
  cur: CfgSection,
  des: CfgSection,
  out: PlanCollector,
): void {
  const where = des.label;
  if (des.kind === 'frontend' || des.kind === 'listen') {
    const a = lastNumber(cur, 'maxconn');
    const b = lastNumber(des, 'maxconn');
    if (a === b) return;
    if (usesMinconn(desired)) {
      // A backend without `fullconn` derives it from the maxconn of its frontends at startup,
      // and `minconn` servers scale with it; `set maxconn frontend` does not redo that.
      out.reload.push(
        `haproxy.cfg: ${where}: maxconn ${String(a ?? 'unset')} -> ${String(b ?? 'unset')} needs a reload (servers use minconn, which scales with the fullconn derived from it)`,
      );
    } else if (typeof a === 'number' && typeof b === 'number') {
      out.addOps('limits', `haproxy.cfg: ${where}: maxconn ${String(a)} -> ${String(b)}`, {
        op: 'frontend.set-maxconn',
        frontend: des.name,
        maxconn: b,
      });
    } else {
      out.reload.push(
        `haproxy.cfg: ${where}: maxconn ${String(a ?? 'unset')} -> ${String(b ?? 'unset')} needs a reload`,
      );
    }
    return;
  }
  if (des.kind !== 'global') return;
  const a = lastNumber(cur, 'maxconn');
  const b = lastNumber(des, 'maxconn');
  if (a !== b) {
    const inheriting = frontendsWithoutMaxconn(desired);
    if (inheriting.length > 0) {
      // Those frontends took their limit from the global maxconn at startup; a runtime change
      // of the global value leaves them where they were, a reload would not.
      out.reload.push(
        `haproxy.cfg: global: maxconn ${String(a ?? 'unset')} -> ${String(b ?? 'unset')} needs a reload (${inheriting.join(', ')} take their maxconn from it)`,
      );
    } else if (typeof a === 'number' && typeof b === 'number' && b < a) {
      out.addOps('limits', `haproxy.cfg: global: maxconn ${String(a)} -> ${String(b)}`, {
        op: 'global.set-maxconn',
        maxconn: b,
      });
    } else {
      out.reload.push(
        `haproxy.cfg: global: maxconn ${String(a ?? 'unset')} -> ${String(b ?? 'unset')} needs a reload (the startup value is a ceiling)`,
      );
    }
  }
  for (const [keyword, kind] of Object.entries(RATE_LIMITS)) {
    const x = lastNumber(cur, keyword);
    const y = lastNumber(des, keyword);
    if (x === y) continue;
    if (x === 'invalid' || y === 'invalid') {
      out.reload.push(`haproxy.cfg: global: ${keyword} has a value the planner cannot read`);
      continue;
    }
    out.addOps(
      'limits',
      `haproxy.cfg: global: ${keyword} ${String(x ?? 'unset')} -> ${String(y ?? 'unset')}`,
      {
        op: 'global.set-rate-limit',
        kind,
        value: y ?? 0,
      },
    );
  }
}

/** True when both configurations hold the same lines (they differ at most in comments and layout). */
export function sameCfgLines(a: ParsedCfg, b: ParsedCfg): boolean {
  if (!sameLines(a.preamble, b.preamble) || a.sections.length !== b.sections.length) return false;
  return a.sections.every((s, i) => {
    const t = b.sections[i];
    return (
      t !== undefined && lineKey(s.header) === lineKey(t.header) && sameLines(s.lines, t.lines)
    );
  });
}

function sameLines(a: readonly CfgLine[], b: readonly CfgLine[]): boolean {
  return a.length === b.length && a.every((l, i) => lineKey(l) === lineKey(b[i] as CfgLine));
}

/**
 * Diffs two parsed configurations. Server lines in backends, `maxconn` in frontends and the
 * global `maxconn` / rate limits are runtime-capable; every other difference is a reload reason.
 */
export function planCfg(current: ParsedCfg, desired: ParsedCfg, out: PlanCollector): void {
  if (
    JSON.stringify(current.preamble.map(lineKey)) !== JSON.stringify(desired.preamble.map(lineKey))
  ) {
    out.reload.push('haproxy.cfg: lines before the first section changed');
  }
  const curKeys = current.sections.map((s) => s.key);
  const desKeys = desired.sections.map((s) => s.key);
  const curByKey = new Map(current.sections.map((s) => [s.key, s]));
  const desByKey = new Map(desired.sections.map((s) => [s.key, s]));
  for (const s of desired.sections) {
    if (!curByKey.has(s.key))
      out.reload.push(`haproxy.cfg: ${s.label} added (line ${String(s.header.lineNo)})`);
  }
  for (const s of current.sections) {
    if (!desByKey.has(s.key)) out.reload.push(`haproxy.cfg: ${s.label} removed`);
  }
  const common = curKeys.filter((k) => desByKey.has(k));
  const commonDesired = desKeys.filter((k) => curByKey.has(k));
  if (common.some((k, i) => commonDesired[i] !== k)) {
    out.reload.push('haproxy.cfg: sections reordered (defaults apply to the sections below them)');
  }
  for (const des of desired.sections) {
    const cur = curByKey.get(des.key);
    if (cur === undefined) continue;
    if (lineKey(cur.header) !== lineKey(des.header)) {
      out.reload.push(
        `haproxy.cfg: ${des.label}: header changed: ${formatCfgArgs(cur.header.args)} -> ${formatCfgArgs(des.header.args)}`,
      );
      continue;
    }
    if (sameLines(cur.lines, des.lines)) continue;
    const curStatic = cur.lines.filter((l) => !isRuntimeLine(cur, l));
    const desStatic = des.lines.filter((l) => !isRuntimeLine(des, l));
    if (!sameLines(curStatic, desStatic)) {
      out.reload.push(...describeLineChanges(des.label, curStatic, desStatic));
      continue;
    }
    const before = out.runtime.length + out.reload.length;
    if (des.kind === 'backend' || des.kind === 'listen')
      planBackendServers(current, desired, cur, des, out);
    planLimits(desired, cur, des, out);
    if (out.runtime.length + out.reload.length === before) {
      out.info.push(
        `haproxy.cfg: ${des.label}: server or limit lines rewritten without effect on the running state`,
      );
    }
  }
}
