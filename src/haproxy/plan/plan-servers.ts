import {
  defaultsChain,
  formatCfgArgs,
  type CfgLine,
  type CfgSection,
  type ParsedCfg,
} from './cfg-parser.js';
import type { PlanCollector } from './plan-collector.js';
import type { RuntimeOp } from './runtime-op.js';
import {
  addServerParams,
  effectiveServer,
  parseServerKeywords,
  staticSignature,
  unaddableKeywords,
  type EffectiveServer,
  type ServerKeyword,
} from './server-line.js';

/** True for a line the planner may turn into runtime server commands. */
export function isRuntimeServerLine(line: CfgLine): boolean {
  return line.args[0] === 'server' && line.condDepth === 0 && !line.usesEnv;
}

const DYNAMIC_ALGORITHMS = new Set(['roundrobin', 'leastconn', 'first', 'random']);
const HASH_ALGORITHMS = new Set(['source', 'uri', 'url_param', 'hdr', 'rdp-cookie', 'hash']);

/** The `balance` line in force for a backend, and whether `add server` / `del server` work with it. */
export function backendBalance(
  cfg: ParsedCfg,
  section: CfgSection,
): { algorithm: string; dynamic: boolean } {
  let balance: readonly string[] = ['roundrobin'];
  let hashType = 'map-based';
  for (const s of [...defaultsChain(cfg, section), section]) {
    for (const line of s.lines) {
      if (line.args[0] === 'balance' && line.args[1] !== undefined) balance = line.args.slice(1);
      if (line.args[0] === 'hash-type' && line.args[1] !== undefined) hashType = line.args[1];
    }
  }
  const algorithm = (balance[0] ?? 'roundrobin').replace(/\(.*$/, '');
  const dynamic =
    DYNAMIC_ALGORITHMS.has(algorithm) ||
    (HASH_ALGORITHMS.has(algorithm) && hashType === 'consistent');
  return { algorithm: formatCfgArgs(balance), dynamic };
}

interface BackendServers {
  readonly servers: Map<string, EffectiveServer>;
  readonly duplicates: string[];
  /** Effective ids (explicit, then HAProxy's automatic numbering in line order). */
  readonly ids: Map<string, number>;
  /** True when some server (or server-template) has no explicit id. */
  readonly autoIds: boolean;
}

function defaultServerKeywords(cfg: ParsedCfg, section: CfgSection): ServerKeyword[] | undefined {
  const out: ServerKeyword[] = [];
  for (const s of defaultsChain(cfg, section)) {
    for (const line of s.lines) {
      if (line.args[0] !== 'default-server') continue;
      const parsed = parseServerKeywords(line.args.slice(1));
      if (!parsed.ok) return undefined;
      out.push(...parsed.keywords);
    }
  }
  return out;
}

function collectServers(cfg: ParsedCfg, section: CfgSection): BackendServers {
  let defaults = defaultServerKeywords(cfg, section);
  const servers = new Map<string, EffectiveServer>();
  const duplicates: string[] = [];
  const order: { name: string | undefined; id: number | undefined }[] = [];
  let autoIds = false;
  for (const line of section.lines) {
    const kw = line.args[0];
    if (kw === 'default-server') {
      const parsed = parseServerKeywords(line.args.slice(1));
      defaults =
        parsed.ok && defaults !== undefined ? [...defaults, ...parsed.keywords] : undefined;
    } else if (kw === 'server-template') {
      autoIds = true;
      order.push({ name: undefined, id: undefined });
    } else if (kw === 'server') {
      const server = effectiveServer(line.args, line.lineNo, line.usesEnv, defaults);
      if (servers.has(server.name)) duplicates.push(server.name);
      servers.set(server.name, server);
      if (server.explicitId === undefined) autoIds = true;
      order.push({ name: server.name, id: server.explicitId });
    }
  }
  const used = new Set<number>();
  for (const o of order) if (o.id !== undefined) used.add(o.id);
  const ids = new Map<string, number>();
  let next = 1;
  for (const o of order) {
    let id = o.id;
    if (id === undefined) {
      while (used.has(next)) next++;
      id = next;
      used.add(id);
    }
    if (o.name !== undefined) ids.set(o.name, id);
  }
  return { servers, duplicates, ids, autoIds };
}

const trackedCache = new WeakMap<ParsedCfg, Set<string>>();

function tracked(cfg: ParsedCfg): Set<string> {
  const cached = trackedCache.get(cfg);
  if (cached !== undefined) return cached;
  const out = new Set<string>();
  trackedCache.set(cfg, out);
  for (const s of cfg.sections) {
    for (const line of s.lines) {
      if (line.args[0] !== 'server' && line.args[0] !== 'default-server') continue;
      const at = line.args.indexOf('track');
      const target = at >= 0 ? line.args[at + 1] : undefined;
      if (target !== undefined) out.add(target.includes('/') ? target : `${s.name}/${target}`);
    }
  }
  return out;
}

function usedByUseServer(section: CfgSection): Set<string> {
  const out = new Set<string>();
  for (const line of section.lines) {
    if (line.args[0] === 'use-server' && line.args[1] !== undefined) out.add(line.args[1]);
  }
  return out;
}

function endpoint(server: EffectiveServer): string {
  const { host, port } = server.address;
  const h = host.includes(':') ? `[${host}]` : host;
  return port === undefined ? h : `${h}:${String(port)}`;
}

/**
 * Diffs the `server` lines of one backend (or listen) section present in both files, whose other
 * lines are identical. Emits runtime ops, or reload reasons when a change needs a reload.
 */
export function planBackendServers(
  current: ParsedCfg,
  desired: ParsedCfg,
  curSection: CfgSection,
  desSection: CfgSection,
  out: PlanCollector,
): void {
  const where = desSection.label;
  const cur = collectServers(current, curSection);
  const des = collectServers(desired, desSection);
  if (des.duplicates.length > 0 || cur.duplicates.length > 0) {
    out.reload.push(
      `haproxy.cfg: ${where}: duplicate server name ${[...des.duplicates, ...cur.duplicates].join(', ')}`,
    );
    return;
  }
  const balance = backendBalance(desired, desSection);
  const trackedServers = tracked(current);
  const useServer = usedByUseServer(curSection);
  const reasons: string[] = [];
  const ops: { phase: Parameters<PlanCollector['addOps']>[0]; reason: string; ops: RuntimeOp[] }[] =
    [];

  const toAdd: EffectiveServer[] = [];
  const toDelete: EffectiveServer[] = [];
  const replaced = new Set<string>();
  for (const [name, d] of des.servers) {
    const c = cur.servers.get(name);
    if (c === undefined) {
      toAdd.push(d);
      continue;
    }
    if (staticSignature(c) !== staticSignature(d) || cur.ids.get(name) !== des.ids.get(name)) {
      toDelete.push(c);
      toAdd.push(d);
      replaced.add(name);
    }
  }
  for (const [name, c] of cur.servers) if (!des.servers.has(name)) toDelete.push(c);
  const deleteBlockers = (c: EffectiveServer): string | undefined => {
    if (!balance.dynamic) return `balance ${balance.algorithm} does not support dynamic servers`;
    if (trackedServers.has(`${curSection.name}/${c.name}`)) return 'another server tracks it';
    if (useServer.has(c.name)) return 'a use-server rule names it';
    return undefined;
  };
  const freedIds = new Set<number>();
  for (const c of toDelete) {
    const id = cur.ids.get(c.name);
    if (id !== undefined) freedIds.add(id);
  }
  const addBlockers = (d: EffectiveServer): string | undefined => {
    if (!balance.dynamic) return `balance ${balance.algorithm} does not support dynamic servers`;
    if (d.usesEnv) return 'the line uses environment variables';
    if ((d.keywords ?? []).some((k) => k.name === 'track')) {
      // Measured on 2.6.12: "unable to use <b>/<s> for tracking as it is a dynamic server", and the
      // planner cannot tell which running servers were added at runtime.
      return 'it tracks another server, which 2.6 refuses when that server is dynamic';
    }
    const refused = unaddableKeywords(d);
    if (refused.length > 0) return `add server does not accept ${refused.join(', ')}`;
    if (!d.address.isIp || d.address.port === undefined || d.address.oddPort) {
      return `address ${d.address.raw} is not an IP literal with a numeric port`;
    }
    if (d.explicitId === undefined) return 'it has no explicit id (2.6 needs one, haproxy#3413)';
    if (cur.autoIds) return 'servers of the running backend have automatic ids';
    for (const [other, id] of cur.ids) {
      if (id === d.explicitId && !freedIds.has(id) && other !== d.name)
        return `id ${String(id)} is used by ${other}`;
    }
    return undefined;
  };

  for (const c of toDelete) {
    const blocker = deleteBlockers(c);
    if (blocker !== undefined) {
      out.reload.push(
        `haproxy.cfg: ${where}: server ${c.name} cannot be removed at runtime: ${blocker}`,
      );
    }
  }
  for (const d of toAdd) {
    const blocker = addBlockers(d);
    if (blocker !== undefined) {
      const what = replaced.has(d.name)
        ? 'changed in a way only a re-add can apply, but'
        : 'added, but';
      out.reload.push(`haproxy.cfg: ${where}: server ${d.name} ${what} ${blocker}`);
    }
  }

  // Deletes that free a name or an id a new server needs must run first.
  const addIds = new Set(toAdd.map((d) => d.explicitId));
  for (const c of toDelete) {
    const frees = replaced.has(c.name) || addIds.has(cur.ids.get(c.name));
    const op: RuntimeOp = { op: 'server.delete', backend: desSection.name, server: c.name };
    const reason = replaced.has(c.name)
      ? `haproxy.cfg: ${where}: server ${c.name} removed to be re-added (parameters or id changed)`
      : `haproxy.cfg: ${where}: server ${c.name} removed`;
    ops.push({ phase: frees ? 'server-freeing-delete' : 'server-delete', reason, ops: [op] });
  }
  for (const d of toAdd) {
    const { host, port } = d.address;
    const op: RuntimeOp = {
      op: 'server.add',
      backend: desSection.name,
      server: d.name,
      id: d.explicitId ?? 0,
      address: host,
      port: port ?? 0,
      weight: d.weight,
      enabled: !d.disabled,
      check: d.check,
      agentCheck: d.agentCheck,
      params: addServerParams(d),
    };
    ops.push({
      phase: 'server-add',
      reason: replaced.has(d.name)
        ? `haproxy.cfg: ${where}: server ${d.name} added back as ${endpoint(d)} id ${String(d.explicitId)}`
        : `haproxy.cfg: ${where}: server ${d.name} added as ${endpoint(d)} id ${String(d.explicitId)}${d.disabled ? ' (disabled)' : ''}`,
      ops: [op],
    });
  }

  for (const [name, d] of des.servers) {
    const c = cur.servers.get(name);
    if (c === undefined || replaced.has(name)) continue;
    const backend = desSection.name;
    if (c.address.raw !== d.address.raw) {
      if (
        !d.address.isIp ||
        d.address.port === undefined ||
        d.address.oddPort ||
        c.address.port === undefined
      ) {
        reasons.push(
          `haproxy.cfg: ${where}: server ${name} address ${c.address.raw} -> ${d.address.raw} cannot be set at runtime (needs an IP literal and a numeric port on both sides)`,
        );
      } else if (c.address.host !== d.address.host || c.address.port !== d.address.port) {
        ops.push({
          phase: 'server-update',
          reason: `haproxy.cfg: ${where}: server ${name} address ${endpoint(c)} -> ${endpoint(d)}`,
          ops: [
            {
              op: 'server.set-addr',
              backend,
              server: name,
              address: d.address.host,
              port: d.address.port,
            },
          ],
        });
      }
    }
    if (c.maxconn !== d.maxconn) {
      ops.push({
        phase: 'server-update',
        reason: `haproxy.cfg: ${where}: server ${name} maxconn ${String(c.maxconn)} -> ${String(d.maxconn)}`,
        ops: [{ op: 'server.set-maxconn', backend, server: name, maxconn: d.maxconn }],
      });
    }
    if (c.weight !== d.weight) {
      if (!balance.dynamic) {
        reasons.push(
          `haproxy.cfg: ${where}: server ${name} weight ${String(c.weight)} -> ${String(d.weight)} cannot be set at runtime with balance ${balance.algorithm}`,
        );
      } else if (d.weight > 256) {
        reasons.push(
          `haproxy.cfg: ${where}: server ${name} weight ${String(d.weight)} is above 256`,
        );
      } else {
        ops.push({
          phase: 'server-update',
          reason: `haproxy.cfg: ${where}: server ${name} weight ${String(c.weight)} -> ${String(d.weight)}`,
          ops: [{ op: 'server.set-weight', backend, server: name, weight: d.weight }],
        });
      }
    }
    if (c.disabled !== d.disabled) {
      ops.push({
        phase: 'server-update',
        reason: `haproxy.cfg: ${where}: server ${name} ${d.disabled ? 'disabled (maint)' : 'enabled (ready)'}`,
        ops: [
          { op: 'server.set-state', backend, server: name, state: d.disabled ? 'maint' : 'ready' },
        ],
      });
    }
  }
  out.reload.push(...reasons);
  for (const o of ops) out.addOps(o.phase, o.reason, ...o.ops);
}
