import { parseCfg, type ParsedCfg } from './cfg-parser.js';
import {
  collectCfgReferences,
  resolveCfgPath,
  type CfgReferences,
  type FileRef,
} from './cfg-references.js';
import {
  certificateNames,
  parseCrtList,
  planCrtListChange,
  type CrtListLine,
} from './crt-list-file.js';
import {
  contentText,
  HAPROXY_CFG_PATH,
  sameContent,
  type FileContent,
  type FileSet,
} from './file-set.js';
import { parseAclFile, parseMapFile, planAclChange, planMapChange } from './map-file.js';
import { planCfg, sameCfgLines } from './plan-cfg.js';
import { PlanCollector } from './plan-collector.js';
import type { PlanDecision, PlanOptions } from './plan-decision.js';

/** Side files HAProxy loads next to a certificate (`ssl-load-extra-files`, default all). */
const CERT_SIDE_FILES = ['.key', '.ocsp', '.issuer', '.sctl'] as const;

/** Where a certificate is used: names as written, and whether crt-lists are its only users. */
interface CertUse {
  readonly names: Set<string>;
  crtListOnly: boolean;
}

/** Everything the planner derives from one side (current or desired). */
interface Side {
  readonly files: ReadonlyMap<string, FileContent>;
  readonly cfg: ParsedCfg;
  readonly refs: CfgReferences;
  /** Certificates HAProxy loads: FileSet path -> use. */
  readonly certs: Map<string, CertUse>;
  /** Directories loaded through `crt <dir>`: FileSet dir path -> the certificate files in it. */
  readonly certDirs: Map<string, string[]>;
  /** crt-lists named by binds: FileSet path -> entries. */
  readonly crtLists: Map<string, CrtListLine[]>;
}

function isCertSideFile(path: string): boolean {
  return CERT_SIDE_FILES.some((ext) => path.endsWith(ext));
}

function certFilesIn(files: ReadonlyMap<string, FileContent>, dir: string): string[] {
  return [...files.keys()]
    .filter((p) => {
      if (!p.startsWith(`${dir}/`)) return false;
      const base = p.slice(dir.length + 1);
      return !base.includes('/') && !base.startsWith('.') && !isCertSideFile(base);
    })
    .sort();
}

function buildSide(
  files: ReadonlyMap<string, FileContent>,
  cfg: ParsedCfg,
  cfgRefs: CfgReferences,
  baseDir: string | undefined,
): Side {
  // crt-list entries may name their own CA and CRL files: they count like haproxy.cfg names.
  const listRefs: FileRef[] = [];
  const certs = new Map<string, CertUse>();
  const certDirs = new Map<string, string[]>();
  const crtLists = new Map<string, CrtListLine[]>();
  const useCert = (path: string, name: string, crtListOnly: boolean): void => {
    const found = certs.get(path);
    if (found === undefined) {
      certs.set(path, { names: new Set([name]), crtListOnly });
    } else {
      found.names.add(name);
      found.crtListOnly &&= crtListOnly;
    }
  };
  for (const ref of cfgRefs.refs) {
    if (ref.use === 'cert') {
      const children = files.has(ref.path) ? [] : certFilesIn(files, ref.path);
      if (children.length > 0) {
        // HAProxy strips the trailing slashes of the directory and names each file <dir>/<file>.
        const dirName = ref.name.replace(/\/+$/, '');
        certDirs.set(ref.path, children);
        for (const child of children)
          useCert(child, `${dirName}/${child.slice(ref.path.length + 1)}`, false);
      } else {
        useCert(ref.path, ref.name, false);
      }
    } else if (ref.use === 'crtlist' && !crtLists.has(ref.path)) {
      const content = files.get(ref.path);
      const lines = content === undefined ? [] : parseCrtList(contentText(content));
      crtLists.set(ref.path, lines);
      for (const line of lines) {
        const path = resolveCfgPath(line.certPath, baseDir);
        if (path !== undefined) useCert(path, line.certPath, true);
        line.options.forEach((option, i) => {
          const name = line.options[i + 1];
          if (name === undefined || (option !== 'ca-file' && option !== 'crl-file')) return;
          const file = resolveCfgPath(name, baseDir);
          if (file === undefined) return;
          listRefs.push({
            name,
            path: file,
            use: option === 'ca-file' ? 'cafile' : 'general',
            ordered: false,
          });
        });
      }
    }
  }
  return {
    files,
    cfg,
    refs: { refs: cfgRefs.refs.concat(listRefs), baseDirectives: cfgRefs.baseDirectives },
    certs,
    certDirs,
    crtLists,
  };
}

/**
 * The agent plans each apply against the previous apply's desired files, so the configuration
 * parsed as `desired` last time comes back as `current`: keep the last two parses. ParsedCfg is
 * never mutated, so sharing it is safe.
 */
const recentParses: { text: string; cfg: ParsedCfg }[] = [];

function parseCfgMemo(text: string): ParsedCfg {
  const hit = recentParses.find((p) => p.text === text);
  if (hit !== undefined) return hit.cfg;
  const cfg = parseCfg(text);
  recentParses.unshift({ text, cfg });
  recentParses.length = Math.min(recentParses.length, 2);
  return cfg;
}

function sameFileSets(a: FileSet, b: FileSet): boolean {
  if (a.files.size !== b.files.size) return false;
  for (const [path, content] of a.files) {
    const other = b.files.get(path);
    if (other === undefined || !sameContent(content, other)) return false;
  }
  return true;
}

function capReasons(reasons: readonly string[], max: number): string[] {
  if (reasons.length <= max) return [...reasons];
  return [...reasons.slice(0, max), `and ${String(reasons.length - max)} more`];
}

function refsFor(side: Side, path: string): FileRef[] {
  return side.refs.refs.filter((r) => r.path === path);
}

function usedAsGeneral(side: Side, path: string): boolean {
  // A directory counts only when written with a trailing slash: bare words (`use_backend maps`)
  // must not capture a whole folder.
  return side.refs.refs.some(
    (r) =>
      r.use === 'general' &&
      (r.path === path || (r.name.endsWith('/') && path.startsWith(`${r.path}/`))),
  );
}

function namesOf(refs: readonly FileRef[], use: FileRef['use']): string[] {
  return [...new Set(refs.filter((r) => r.use === use).map((r) => r.name))].sort();
}

function changed(cur: Side, des: Side, path: string): boolean {
  const a = cur.files.get(path);
  const b = des.files.get(path);
  if (a === undefined || b === undefined) return a !== b;
  return !sameContent(a, b);
}

function text(side: Side, path: string): string {
  const content = side.files.get(path);
  return content === undefined ? '' : contentText(content);
}

/** The PEM HAProxy would load for a certificate: the file plus its `.key` side file, if any. */
function certPem(side: Side, path: string): string {
  const cert = text(side, path);
  const key = side.files.get(`${path}.key`);
  // HAProxy reads the side file only when the PEM itself holds no key.
  if (key === undefined || cert.includes('PRIVATE KEY-----')) return cert;
  return `${cert}${cert.endsWith('\n') ? '' : '\n'}${contentText(key)}`;
}

function planCertificates(cur: Side, des: Side, out: PlanCollector): void {
  for (const [dir, files] of des.certDirs) {
    const before = cur.certDirs.get(dir) ?? [];
    if (before.join('\n') !== files.join('\n')) {
      out.reload.push(`${dir}: certificate directory gained or lost files (loaded at startup)`);
    }
  }
  const paths = [...new Set([...cur.certs.keys(), ...des.certs.keys()])].sort();
  for (const path of paths) {
    const was = cur.certs.get(path);
    const now = des.certs.get(path);
    if (now === undefined) {
      if (was?.crtListOnly === true) {
        for (const name of [...was.names].sort()) {
          out.addOps('tls-cleanup', `${name}: certificate unloaded (no crt-list uses it)`, {
            op: 'cert.delete',
            path: name,
          });
        }
      }
      continue;
    }
    if (!des.files.has(path)) {
      out.reload.push(`${path}: certificate missing from the desired files`);
      continue;
    }
    for (const ext of ['.ocsp', '.issuer', '.sctl']) {
      if (changed(cur, des, `${path}${ext}`))
        out.reload.push(`${path}${ext}: certificate side file changed`);
    }
    const names = [...now.names].sort();
    if (was === undefined) {
      for (const name of names) {
        out.addOps('tls-objects', `${name}: certificate loaded`, {
          op: 'cert.set',
          path: name,
          pem: certPem(des, path),
        });
      }
    } else if (changed(cur, des, path) || changed(cur, des, `${path}.key`)) {
      for (const name of names) {
        out.addOps('tls-objects', `${name}: certificate updated`, {
          op: 'cert.set',
          path: name,
          pem: certPem(des, path),
        });
      }
    }
  }
}

function planCaFile(cur: Side, des: Side, path: string, out: PlanCollector): void {
  if (!des.files.has(path)) {
    out.reload.push(`${path}: CA file removed but haproxy.cfg still uses it`);
    return;
  }
  for (const name of namesOf([...refsFor(cur, path), ...refsFor(des, path)], 'cafile')) {
    out.addOps('tls-objects', `${name}: CA file ${cur.files.has(path) ? 'updated' : 'loaded'}`, {
      op: 'cafile.set',
      path: name,
      pem: text(des, path),
    });
  }
}

function planPatternFile(
  cur: Side,
  des: Side,
  path: string,
  limit: number,
  out: PlanCollector,
): void {
  const curRefs = refsFor(cur, path);
  const desRefs = refsFor(des, path);
  if (!des.files.has(path)) {
    out.reload.push(`${path}: removed but haproxy.cfg still uses it`);
    return;
  }
  const asMap = [...curRefs, ...desRefs].some((r) => r.use === 'map');
  const names = namesOf(curRefs, asMap ? 'map' : 'acl');
  if (names.length === 0) {
    out.reload.push(`${path}: the running HAProxy does not know this file`);
    return;
  }
  const plan = asMap
    ? planMapChange(
        names,
        parseMapFile(text(cur, path)),
        parseMapFile(text(des, path)),
        [...curRefs, ...desRefs].some((r) => r.ordered),
        limit,
      )
    : planAclChange(names, parseAclFile(text(cur, path)), parseAclFile(text(des, path)), limit);
  if (plan.reload !== undefined) {
    out.reload.push(`${path}: ${plan.reload}`);
    return;
  }
  if (plan.summary === '') {
    out.info.push(`${path}: only comments or layout changed`);
    return;
  }
  if (plan.updates.length > 0)
    out.addOps('map-update', `${path}: ${plan.summary}`, ...plan.updates);
  if (plan.deletes.length > 0) {
    out.addOps(
      'map-delete',
      plan.updates.length > 0 ? '' : `${path}: ${plan.summary}`,
      ...plan.deletes,
    );
  }
}

function planCrtList(
  cur: Side,
  des: Side,
  path: string,
  baseDir: string | undefined,
  out: PlanCollector,
): void {
  const names = namesOf(refsFor(cur, path), 'crtlist');
  const desired = des.crtLists.get(path);
  if (desired === undefined || names.length === 0 || !des.files.has(path)) {
    out.reload.push(`${path}: crt-list not known to both configurations`);
    return;
  }
  const plan = planCrtListChange(names, cur.crtLists.get(path) ?? [], desired, (certPath) => {
    const file = resolveCfgPath(certPath, baseDir);
    return file === undefined ? undefined : certificateNames(text(des, file));
  });
  if (plan.reload !== undefined) {
    out.reload.push(`${path}: ${plan.reload}`);
    return;
  }
  if (plan.updates.length > 0)
    out.addOps('crtlist-update', `${path}: ${plan.summary}`, ...plan.updates);
  if (plan.deletes.length > 0) {
    out.addOps(
      'crtlist-delete',
      plan.updates.length > 0 ? '' : `${path}: ${plan.summary}`,
      ...plan.deletes,
    );
  }
  if (plan.updates.length + plan.deletes.length === 0)
    out.info.push(
      `${path}: ${plan.summary === '' ? 'only comments or layout changed' : plan.summary}`,
    );
}

/**
 * Decides how to move HAProxy from the `current` file set (what it runs) to the `desired` one.
 *
 * File-set conventions (paths relative to the base directory, which HAProxy runs in via `-C`):
 * `haproxy.cfg` at the root; maps under `maps/`, certificates under `certs/` (with an optional
 * `<cert>.key`), crt-lists under `crt-lists/`, other files under `files/`. The planner does not
 * rely on the folders: it classifies each file by how haproxy.cfg names it (map converters and
 * `-f` for pattern files, `crt`/`crt-list`/`ca-file` on binds and servers, anything else as a
 * general file read at startup). Runtime ops name objects exactly as haproxy.cfg or the
 * crt-list writes them.
 *
 * Runtime-capable (reference reload-free-2.6.md §9): servers added (explicit `id`, IP address,
 * keywords `add server` accepts, dynamic balance), removed, re-addressed, re-weighted, maxconn,
 * enabled/disabled; map and ACL entries; certificates and CA files that are loaded, or used by a
 * new crt-list entry or server; crt-list entries; frontend maxconn; lowering global maxconn;
 * global rate limits. Everything else in haproxy.cfg, and any change to a general file it
 * names (or to any Lua file), needs a reload. Files haproxy.cfg does not name are written only.
 */
export function planChange(
  current: FileSet,
  desired: FileSet,
  options: PlanOptions = {},
): PlanDecision {
  const maxReasons = options.maxReasons ?? 50;
  const limit = options.incrementalMapLimit ?? 256;
  if (options.forceReload === true)
    return { mode: 'reload', reasons: ['reload requested by the caller'] };
  const desCfg = desired.files.get(HAPROXY_CFG_PATH);
  if (desCfg === undefined)
    return { mode: 'reload', reasons: ['the desired file set has no haproxy.cfg'] };
  const curCfg = current.files.get(HAPROXY_CFG_PATH);
  if (curCfg === undefined)
    return { mode: 'reload', reasons: ['no running configuration is known (first apply)'] };

  if (sameFileSets(current, desired)) return { mode: 'noop', reasons: ['no changes'] };

  const isFile = (path: string): boolean => current.files.has(path) || desired.files.has(path);
  const parse = (content: FileContent): [ParsedCfg, CfgReferences] => {
    const cfg = parseCfgMemo(contentText(content));
    return [cfg, collectCfgReferences(cfg, options.baseDir, isFile)];
  };
  // Most runtime changes leave haproxy.cfg alone: parse it once then.
  const [curParsed, curRefs] = parse(curCfg);
  const [desParsed, desRefs] = sameContent(curCfg, desCfg) ? [curParsed, curRefs] : parse(desCfg);
  const cur = buildSide(current.files, curParsed, curRefs, options.baseDir);
  const des = buildSide(desired.files, desParsed, desRefs, options.baseDir);
  const out = new PlanCollector();
  if (!sameContent(curCfg, desCfg)) {
    if (sameCfgLines(cur.cfg, des.cfg))
      out.info.push('haproxy.cfg: only comments or layout changed');
    else planCfg(cur.cfg, des.cfg, out);
  }
  if (out.reload.length > 0) return { mode: 'reload', reasons: capReasons(out.reload, maxReasons) };

  const tlsBase = [...new Set([...cur.refs.baseDirectives, ...des.refs.baseDirectives])];
  const tlsPaths = new Set<string>();
  for (const side of [cur, des]) {
    for (const path of [...side.certs.keys(), ...side.crtLists.keys()]) {
      tlsPaths.add(path);
      for (const ext of CERT_SIDE_FILES) tlsPaths.add(`${path}${ext}`);
    }
    for (const ref of side.refs.refs) if (ref.use === 'cafile') tlsPaths.add(ref.path);
  }
  if (tlsBase.length > 0) {
    const touched = [...tlsPaths].filter((p) => changed(cur, des, p)).sort();
    for (const path of touched)
      out.reload.push(`${path}: changed while ${tlsBase.join('/')} is set`);
  } else {
    planCertificates(cur, des, out);
    const caPaths = [
      ...new Set(des.refs.refs.filter((r) => r.use === 'cafile').map((r) => r.path)),
    ].sort();
    for (const path of caPaths) {
      const known = refsFor(cur, path).some((r) => r.use === 'cafile');
      if (!known || changed(cur, des, path)) planCaFile(cur, des, path, out);
    }
  }
  const paths = [...new Set([...current.files.keys(), ...desired.files.keys()])].sort();
  for (const path of paths) {
    if (path === HAPROXY_CFG_PATH || !changed(cur, des, path)) continue;
    const refs = [...refsFor(cur, path), ...refsFor(des, path)];
    const uses = new Set(refs.map((r) => r.use));
    if (path.endsWith('.lua')) {
      out.reload.push(`${path}: Lua code changed (loaded at startup)`);
    } else if (usedAsGeneral(cur, path) || usedAsGeneral(des, path)) {
      out.reload.push(`${path}: changed, and haproxy.cfg reads it only at startup`);
    } else if (uses.has('map') || uses.has('acl')) {
      planPatternFile(cur, des, path, limit, out);
    } else if (uses.has('crtlist')) {
      if (tlsBase.length === 0) planCrtList(cur, des, path, options.baseDir, out);
    } else if (!tlsPaths.has(path)) {
      const how = !current.files.has(path)
        ? 'added'
        : !desired.files.has(path)
          ? 'removed'
          : 'changed';
      out.info.push(`${path}: ${how}, not used by haproxy.cfg (written only)`);
    }
  }

  if (out.reload.length > 0) return { mode: 'reload', reasons: capReasons(out.reload, maxReasons) };
  const ops = out.ops();
  const notes = [...out.runtime.filter((r) => r !== ''), ...out.info];
  if (ops.length === 0) {
    return {
      mode: 'noop',
      reasons: capReasons(notes.length > 0 ? notes : ['no changes'], maxReasons),
    };
  }
  return { mode: 'runtime', ops, reasons: capReasons(notes, maxReasons) };
}
