/**
 * Reading `server` and `default-server` lines, and what HAProxy 2.6 lets `add server` express.
 * The keyword lists were measured against HAProxy 2.6.12 (`add server be/x … <keyword>` on a
 * roundrobin backend); see ../shared/reference/reload-free-2.6.md §3.2.
 */

/** Server keywords that take no argument (2.6). */
const FLAG_KEYWORDS: ReadonlySet<string> = new Set([
  'agent-check',
  'allow-0rtt',
  'backup',
  'check',
  'check-send-proxy',
  'check-ssl',
  'check-via-socks4',
  'disabled',
  'enabled',
  'force-sslv3',
  'force-tlsv10',
  'force-tlsv11',
  'force-tlsv12',
  'force-tlsv13',
  'no-agent-check',
  'no-backup',
  'no-check',
  'no-check-ssl',
  'no-send-proxy',
  'no-send-proxy-v2',
  'no-send-proxy-v2-ssl',
  'no-send-proxy-v2-ssl-cn',
  'no-ssl',
  'no-ssl-reuse',
  'no-sslv3',
  'no-tfo',
  'no-tls-tickets',
  'no-tlsv10',
  'no-tlsv11',
  'no-tlsv12',
  'no-tlsv13',
  'no-verifyhost',
  'non-stick',
  'send-proxy',
  'send-proxy-v2',
  'send-proxy-v2-ssl',
  'send-proxy-v2-ssl-cn',
  'ssl',
  'ssl-reuse',
  'stick',
  'tfo',
  'tls-tickets',
]);

/** Server keywords that take exactly one argument (2.6). */
const VALUE_KEYWORDS: ReadonlySet<string> = new Set([
  'addr',
  'agent-addr',
  'agent-inter',
  'agent-port',
  'agent-send',
  'alpn',
  'ca-file',
  'check-alpn',
  'check-proto',
  'check-sni',
  'ciphers',
  'ciphersuites',
  'cookie',
  'crl-file',
  'crt',
  'downinter',
  'error-limit',
  'fall',
  'fastinter',
  'id',
  'init-addr',
  'inter',
  'interface',
  'log-proto',
  'max-reuse',
  'maxconn',
  'maxqueue',
  'minconn',
  'namespace',
  'npn',
  'observe',
  'on-error',
  'on-marked-down',
  'on-marked-up',
  'pool-low-conn',
  'pool-max-conn',
  'pool-purge-delay',
  'port',
  'proto',
  'proxy-v2-options',
  'redir',
  'resolve-net',
  'resolve-opts',
  'resolve-prefer',
  'resolvers',
  'rise',
  'slowstart',
  'sni',
  'socks4',
  'source',
  'ssl-max-ver',
  'ssl-min-ver',
  'tcp-ut',
  'track',
  'usesrc',
  'verify',
  'verifyhost',
  'weight',
  'ws',
]);

/**
 * Keywords `add server` accepted on 2.6.12. Refused there: cookie, resolvers, init-addr, redir,
 * namespace, no-ssl, no-check, max-reuse, socks4, tcp-ut, stick, non-stick, log-proto,
 * resolve-*; unknown to 2.6: no-verifyhost. `usesrc`/`interface` were not tried and stay out.
 */
const ADDABLE_KEYWORDS: ReadonlySet<string> = new Set([
  'addr',
  'agent-addr',
  'agent-check',
  'agent-inter',
  'agent-port',
  'agent-send',
  'allow-0rtt',
  'alpn',
  'backup',
  'ca-file',
  'check',
  'check-alpn',
  'check-proto',
  'check-send-proxy',
  'check-sni',
  'check-ssl',
  'check-via-socks4',
  'ciphers',
  'ciphersuites',
  'crt',
  'disabled',
  'downinter',
  'enabled',
  'error-limit',
  'fall',
  'fastinter',
  'force-sslv3',
  'force-tlsv10',
  'force-tlsv11',
  'force-tlsv12',
  'force-tlsv13',
  'id',
  'inter',
  'maxconn',
  'maxqueue',
  'minconn',
  'no-backup',
  'no-send-proxy',
  'no-ssl-reuse',
  'no-sslv3',
  'no-tls-tickets',
  'no-tlsv10',
  'no-tlsv11',
  'no-tlsv12',
  'no-tlsv13',
  'npn',
  'observe',
  'on-error',
  'on-marked-down',
  'on-marked-up',
  'pool-low-conn',
  'pool-max-conn',
  'pool-purge-delay',
  'port',
  'proto',
  'proxy-v2-options',
  'rise',
  'send-proxy',
  'send-proxy-v2',
  'send-proxy-v2-ssl',
  'send-proxy-v2-ssl-cn',
  'slowstart',
  'sni',
  'source',
  'ssl',
  'ssl-max-ver',
  'ssl-min-ver',
  'tfo',
  'tls-tickets',
  'track',
  'verify',
  'verifyhost',
  'weight',
  'ws',
]);

/** One keyword of a server line with its argument (if it takes one). */
export interface ServerKeyword {
  readonly name: string;
  readonly value: string | undefined;
}

/** A parsed server address. */
export interface ServerAddress {
  /** The address token as written. */
  readonly raw: string;
  /** The host part without brackets or `ipv4@`/`ipv6@` prefix. */
  readonly host: string;
  /** The port, when the token has a plain numeric one. */
  readonly port: number | undefined;
  /** True when `host` is an IPv4 or IPv6 literal (`set server addr` and `add server` need one). */
  readonly isIp: boolean;
  /** True when the port is a range, an offset (`+1`) or otherwise not a plain number. */
  readonly oddPort: boolean;
}

/** The keywords of a line, or the first keyword the reader does not know. */
export type KeywordParse =
  | { readonly ok: true; readonly keywords: readonly ServerKeyword[] }
  | { readonly ok: false; readonly unknown: string };

/** Splits the keyword part of a server or default-server line. */
export function parseServerKeywords(tokens: readonly string[]): KeywordParse {
  const keywords: ServerKeyword[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const name = tokens[i] ?? '';
    if (FLAG_KEYWORDS.has(name)) {
      keywords.push({ name, value: undefined });
    } else if (VALUE_KEYWORDS.has(name) && i + 1 < tokens.length) {
      keywords.push({ name, value: tokens[i + 1] });
      i++;
    } else {
      return { ok: false, unknown: name };
    }
  }
  return { ok: true, keywords };
}

/** True when `add server` on 2.6 accepts the keyword. */
export function isAddableKeyword(name: string): boolean {
  return ADDABLE_KEYWORDS.has(name);
}

function isIpv4(host: string): boolean {
  const parts = host.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

function isIpv6(host: string): boolean {
  return host.includes(':') && /^[0-9a-fA-F:.]+$/.test(host) && !host.includes(':::');
}

/** Parses a server address token (`10.0.0.1:80`, `[::1]:80`, `::1:80`, `ipv4@h:80`, `name`). */
export function parseServerAddress(raw: string): ServerAddress {
  let rest = raw;
  let forcedFamily: 'ipv4' | 'ipv6' | undefined;
  const at = /^(ipv4|ipv6)@/.exec(rest);
  if (at !== null) {
    forcedFamily = at[1] === 'ipv4' ? 'ipv4' : 'ipv6';
    rest = rest.slice(at[0].length);
  } else if (rest.includes('@') || rest.startsWith('/')) {
    // unix@, abns@, fd@, sockpair@ and paths: never changed at runtime by the planner.
    return { raw, host: rest, port: undefined, isIp: false, oddPort: true };
  }
  let host = rest;
  let portText: string | undefined;
  const bracket = /^\[([^\]]*)\](?::(.*))?$/.exec(rest);
  if (bracket !== null) {
    host = bracket[1] ?? '';
    portText = bracket[2];
  } else {
    const colons = rest.split(':').length - 1;
    if (colons >= 1) {
      const cut = rest.lastIndexOf(':');
      host = rest.slice(0, cut);
      portText = rest.slice(cut + 1);
    }
  }
  const isIp =
    forcedFamily === 'ipv4'
      ? isIpv4(host)
      : forcedFamily === 'ipv6'
        ? isIpv6(host)
        : isIpv4(host) || isIpv6(host);
  if (portText === undefined || portText === '') {
    return { raw, host, port: undefined, isIp, oddPort: portText === '' };
  }
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
    return { raw, host, port: undefined, isIp, oddPort: true };
  }
  return { raw, host, port: Number(portText), isIp, oddPort: false };
}

/** A server line resolved with the `default-server` keywords in force where it appears. */
export interface EffectiveServer {
  readonly name: string;
  readonly lineNo: number;
  readonly address: ServerAddress;
  /** Every keyword in parse order: default-server ones first, then the line's own. */
  readonly keywords: readonly ServerKeyword[] | undefined;
  /** Set when a keyword could not be read (unknown to the planner). */
  readonly unknownKeyword: string | undefined;
  /** The raw tokens after the address (the line's own, without default-server). */
  readonly ownTokens: readonly string[];
  /** Explicit `id` on the line, if any. */
  readonly explicitId: number | undefined;
  readonly weight: number;
  readonly maxconn: number;
  readonly disabled: boolean;
  readonly check: boolean;
  readonly agentCheck: boolean;
  /** True when the line uses `"$VAR"` expansion. */
  readonly usesEnv: boolean;
}

const RUNTIME_MUTABLE = new Set(['id', 'weight', 'maxconn', 'disabled', 'enabled']);

function lastValue(keywords: readonly ServerKeyword[], name: string): string | undefined {
  let value: string | undefined;
  for (const k of keywords) if (k.name === name) value = k.value;
  return value;
}

function flagState(
  keywords: readonly ServerKeyword[],
  on: string,
  off: string,
  initial: boolean,
): boolean {
  let state = initial;
  for (const k of keywords) {
    if (k.name === on) state = true;
    else if (k.name === off) state = false;
  }
  return state;
}

/** Resolves a server line (`server <name> <addr> <kw…>`) against the default-server keywords in force. */
export function effectiveServer(
  args: readonly string[],
  lineNo: number,
  usesEnv: boolean,
  defaults: readonly ServerKeyword[] | undefined,
): EffectiveServer {
  const name = args[1] ?? '';
  const address = parseServerAddress(args[2] ?? '');
  const ownTokens = args.slice(3);
  const own = parseServerKeywords(ownTokens);
  const keywords = own.ok && defaults !== undefined ? [...defaults, ...own.keywords] : undefined;
  const unknownKeyword = own.ok
    ? defaults === undefined
      ? 'default-server'
      : undefined
    : own.unknown;
  const list = keywords ?? [];
  const idText = own.ok ? lastValue(own.keywords, 'id') : undefined;
  const weightText = lastValue(list, 'weight');
  const maxconnText = lastValue(list, 'maxconn');
  return {
    name,
    lineNo,
    address,
    keywords,
    unknownKeyword,
    ownTokens,
    explicitId: idText !== undefined && /^\d+$/.test(idText) ? Number(idText) : undefined,
    weight: weightText !== undefined && /^\d+$/.test(weightText) ? Number(weightText) : 1,
    maxconn: maxconnText !== undefined && /^\d+$/.test(maxconnText) ? Number(maxconnText) : 0,
    disabled: flagState(list, 'disabled', 'enabled', false),
    check: flagState(list, 'check', 'no-check', false),
    agentCheck: flagState(list, 'agent-check', 'no-agent-check', false),
    usesEnv,
  };
}

/**
 * The part of a server that no runtime command changes: every keyword except id, weight,
 * maxconn, disabled and enabled, in order. Two servers with the same signature differ only in
 * what `set server` / `set weight` / `set maxconn server` can change.
 */
export function staticSignature(server: EffectiveServer): string {
  if (server.keywords === undefined) return JSON.stringify(['?', server.ownTokens]);
  return JSON.stringify(
    server.keywords
      .filter((k) => !RUNTIME_MUTABLE.has(k.name))
      .map((k) => [k.name, k.value ?? null]),
  );
}

/** The `add server` parameters: keywords without id, weight, disabled and enabled, as tokens. */
export function addServerParams(server: EffectiveServer): readonly string[] {
  const out: string[] = [];
  for (const k of server.keywords ?? []) {
    if (k.name === 'id' || k.name === 'weight' || k.name === 'disabled' || k.name === 'enabled')
      continue;
    out.push(k.name);
    if (k.value !== undefined) out.push(k.value);
  }
  return out;
}

/** The keywords of a server that `add server` refuses (empty when it can be added at runtime). */
export function unaddableKeywords(server: EffectiveServer): readonly string[] {
  if (server.keywords === undefined) return [server.unknownKeyword ?? '?'];
  return [...new Set(server.keywords.filter((k) => !isAddableKeyword(k.name)).map((k) => k.name))];
}
