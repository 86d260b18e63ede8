/**
 * The vocabulary between the planner and the executor.
 *
 * The planner decides WHAT must change in the running HAProxy; the executor (src/haproxy/agent)
 * decides HOW: argument sanitising and CLI escaping, chunking of payloads (about 16 KiB per
 * payload on 2.6, larger ones are dropped silently), `prepare`/`commit` version numbers, the
 * drain → maint → `del server` retry loop, and `new ssl cert` when an object is still unknown.
 *
 * Names in ops are the names HAProxy knows the objects by: backend and server names as written
 * in haproxy.cfg, and for maps, ACL files, certificates, CA files and crt-lists the file name
 * exactly as written in haproxy.cfg (or in the crt-list), which is relative to the base
 * directory because HAProxy runs with `-C <baseDir>`. See docs in `plan-change.ts`.
 *
 * Ops are listed in the order they must run. Every op leaves the runtime state equal to the
 * state the desired files produce after a reload, once all ops ran.
 */
export type RuntimeOp =
  | ServerAddOp
  | ServerDeleteOp
  | ServerSetAddrOp
  | ServerSetWeightOp
  | ServerSetMaxconnOp
  | ServerSetStateOp
  | MapSetEntryOp
  | MapDeleteOp
  | MapReplaceOp
  | AclAddOp
  | AclDeleteOp
  | AclReplaceOp
  | CertSetOp
  | CertDeleteOp
  | CaFileSetOp
  | CrtListAddOp
  | CrtListDeleteOp
  | FrontendSetMaxconnOp
  | GlobalSetMaxconnOp
  | GlobalSetRateLimitOp;

/**
 * Add a dynamic server: `add server <backend>/<server> <address>:<port> id <id> weight <w>
 * <params…>`, then `enable server` when `enabled`, `enable health` when `check`, and
 * `enable agent` when `agentCheck`. A new server starts in maintenance on 2.6.
 * `default-server` keywords are already merged into `params` (2.6 does not inherit them).
 */
export interface ServerAddOp {
  readonly op: 'server.add';
  readonly backend: string;
  readonly server: string;
  /** Always explicit: chash backends misplace dynamic servers without one on 2.6 (haproxy#3413). */
  readonly id: number;
  /** Bare IPv4 or IPv6 literal, no brackets, no `ipv4@` prefix. */
  readonly address: string;
  readonly port: number;
  readonly weight: number;
  /** False when the server line says `disabled`: it stays in maintenance. */
  readonly enabled: boolean;
  /** The server has `check`: send `enable health` after adding. */
  readonly check: boolean;
  /** The server has `agent-check`: send `enable agent` after adding. */
  readonly agentCheck: boolean;
  /**
   * Every other keyword with its arguments, in config order (merged default-server keywords
   * first), without `id`, `weight`, `disabled` and `enabled`. Includes `check` / `agent-check`.
   */
  readonly params: readonly string[];
}

/** Remove a server: `set server … state drain`, then `state maint` + `del server`, retried while connections remain. */
export interface ServerDeleteOp {
  readonly op: 'server.delete';
  readonly backend: string;
  readonly server: string;
}

/** `set server <backend>/<server> addr <address> port <port>`. */
export interface ServerSetAddrOp {
  readonly op: 'server.set-addr';
  readonly backend: string;
  readonly server: string;
  /** Bare IPv4 or IPv6 literal. */
  readonly address: string;
  readonly port: number;
}

/** `set weight <backend>/<server> <weight>` (0–256). */
export interface ServerSetWeightOp {
  readonly op: 'server.set-weight';
  readonly backend: string;
  readonly server: string;
  readonly weight: number;
}

/** `set maxconn server <backend>/<server> <maxconn>` (0 = unlimited). */
export interface ServerSetMaxconnOp {
  readonly op: 'server.set-maxconn';
  readonly backend: string;
  readonly server: string;
  readonly maxconn: number;
}

/** `set server <backend>/<server> state ready|maint|drain`. */
export interface ServerSetStateOp {
  readonly op: 'server.set-state';
  readonly backend: string;
  readonly server: string;
  readonly state: 'ready' | 'maint' | 'drain';
}

/**
 * `add map` (key absent) or `set map` (key present; rewrites every entry with that key).
 * The planner chooses: `map.add` only for keys the map does not hold, so no duplicate appears.
 */
export interface MapSetEntryOp {
  readonly op: 'map.add' | 'map.set';
  readonly map: string;
  readonly key: string;
  readonly value: string;
}

/** `del map <map> <key>` (removes every entry with that key). */
export interface MapDeleteOp {
  readonly op: 'map.delete';
  readonly map: string;
  readonly key: string;
}

/**
 * Atomic replace in file order: `prepare map`, `add map @<ver>` for every entry (chunked
 * payloads under 16 KiB, counts checked with `show map @<ver>`), `commit map @<ver>`.
 * Used for order-sensitive maps (regex), duplicate keys, and large diffs.
 */
export interface MapReplaceOp {
  readonly op: 'map.replace';
  readonly map: string;
  readonly entries: readonly (readonly [key: string, value: string])[];
}

/** `add acl <file> <pattern>` on a pattern file used by an ACL (`acl … -f <file>`). */
export interface AclAddOp {
  readonly op: 'acl.add';
  readonly acl: string;
  readonly pattern: string;
}

/** `del acl <file> <pattern>`. */
export interface AclDeleteOp {
  readonly op: 'acl.delete';
  readonly acl: string;
  readonly pattern: string;
}

/** `prepare acl` / `add acl @<ver>` per pattern in file order / `commit acl @<ver>`. */
export interface AclReplaceOp {
  readonly op: 'acl.replace';
  readonly acl: string;
  readonly patterns: readonly string[];
}

/**
 * Load or rotate a certificate: `new ssl cert <path>` when HAProxy does not know it yet,
 * `set ssl cert <path> <<` + PEM, `commit ssl cert <path>`. `pem` holds the certificate and its
 * key (a separate `<path>.key` file is appended, as HAProxy does when it loads from disk).
 */
export interface CertSetOp {
  readonly op: 'cert.set';
  readonly path: string;
  readonly pem: string;
}

/** `del ssl cert <path>` once no crt-list uses it any more. */
export interface CertDeleteOp {
  readonly op: 'cert.delete';
  readonly path: string;
}

/** `new ssl ca-file <path>` when unknown, `set ssl ca-file <path> <<` + PEM, `commit ssl ca-file <path>`. */
export interface CaFileSetOp {
  readonly op: 'cafile.set';
  readonly path: string;
  readonly pem: string;
}

/**
 * `add ssl crt-list <crtList> <<` + `line` (`<certPath> [options] [filters…]`, crt-list file
 * syntax). The certificate must be loaded first; the plan emits its `cert.set` earlier.
 */
export interface CrtListAddOp {
  readonly op: 'crtlist.add';
  readonly crtList: string;
  readonly line: string;
}

/** `del ssl crt-list <crtList> <certPath>`; the plan only emits it when the path is unique in the list. */
export interface CrtListDeleteOp {
  readonly op: 'crtlist.delete';
  readonly crtList: string;
  readonly certPath: string;
}

/** `set maxconn frontend <frontend> <maxconn>`. */
export interface FrontendSetMaxconnOp {
  readonly op: 'frontend.set-maxconn';
  readonly frontend: string;
  readonly maxconn: number;
}

/** `set maxconn global <maxconn>` (only lowered at runtime: the startup value is a hard cap). */
export interface GlobalSetMaxconnOp {
  readonly op: 'global.set-maxconn';
  readonly maxconn: number;
}

/** `set rate-limit <kind> global <value>` (0 = no limit), from `maxconnrate`, `maxsessrate`, `maxsslrate`, `maxcomprate`. */
export interface GlobalSetRateLimitOp {
  readonly op: 'global.set-rate-limit';
  readonly kind: 'connections' | 'sessions' | 'ssl-sessions' | 'http-compression';
  readonly value: number;
}

/** The `op` tags, for exhaustive switches in the executor. */
export type RuntimeOpKind = RuntimeOp['op'];
