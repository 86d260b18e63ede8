/**
 * Where the API server is and how to authenticate: from a kubeconfig file (`--kubeconfig`,
 * `KUBECONFIG`, `~/.kube/config`) or from the in-cluster service account. Supported auth: bearer
 * token (inline or file), client certificate. Exec and auth-provider plugins are rejected with a
 * clear error rather than ignored.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { TerminalHapticError } from '../../core/errors.js';

/** Thrown when a kubeconfig or the in-cluster environment cannot be used. */
export class KubeConfigError extends TerminalHapticError {
  readonly code = 'HAPTIC_ERR_KUBECONFIG';
}

/** Everything needed to talk to one API server as one user. */
export interface ClusterConnection {
  /** Base URL, e.g. `https://127.0.0.1:6443`. */
  readonly server: string;
  /** PEM CA bundle to trust; undefined means the system roots. */
  readonly caPem?: string;
  /** Skip TLS verification (tests only; never in production). */
  readonly insecureSkipTlsVerify?: boolean;
  /** Static bearer token. */
  readonly token?: string;
  /** File holding the bearer token, re-read periodically (service account tokens rotate). */
  readonly tokenFile?: string;
  /** PEM client certificate and key. */
  readonly clientCertPem?: string;
  readonly clientKeyPem?: string;
  /** TLS server name override. */
  readonly tlsServerName?: string;
}

/** Standard in-cluster paths. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

interface NamedEntry<T> {
  name?: unknown;
  cluster?: T;
  user?: T;
  context?: T;
}

function asRecord(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new KubeConfigError(`${what} must be a mapping`);
  }
  return value as Record<string, unknown>;
}

function optString(rec: Record<string, unknown>, key: string, what: string): string | undefined {
  const v = rec[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new KubeConfigError(`${what}.${key} must be a string`);
  return v;
}

function findNamed(
  list: unknown,
  name: string,
  field: 'cluster' | 'user' | 'context',
  file: string,
): Record<string, unknown> {
  if (!Array.isArray(list)) throw new KubeConfigError(`${file}: "${field}s" must be a list`);
  for (const raw of list as NamedEntry<unknown>[]) {
    if (raw.name === name) return asRecord(raw[field] ?? {}, `${file}: ${field} "${name}"`);
  }
  throw new KubeConfigError(`${file}: no ${field} named "${name}"`);
}

function readPem(
  base: string,
  path: string | undefined,
  data: string | undefined,
  what: string,
): string | undefined {
  if (data) return Buffer.from(data, 'base64').toString('utf8');
  if (!path) return undefined;
  const full = isAbsolute(path) ? path : join(base, path);
  try {
    return readFileSync(full, 'utf8');
  } catch (err) {
    throw new KubeConfigError(`read ${what} file ${full}`, { cause: err });
  }
}

/**
 * Parses a kubeconfig file and returns the connection of `context` (default: current-context).
 * Throws KubeConfigError naming the file and the missing or malformed field.
 */
export function loadKubeConfigFile(path: string, context?: string): ClusterConnection {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new KubeConfigError(`read kubeconfig ${path}`, { cause: err });
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new KubeConfigError(`parse kubeconfig ${path}: not valid YAML`, { cause: err });
  }
  const root = asRecord(doc, `kubeconfig ${path}`);
  const ctxName = context ?? optString(root, 'current-context', path);
  if (!ctxName) throw new KubeConfigError(`${path}: no current-context set and no context given`);
  const ctx = findNamed(root['contexts'], ctxName, 'context', path);
  const clusterName = optString(ctx, 'cluster', `${path}: context "${ctxName}"`);
  const userName = optString(ctx, 'user', `${path}: context "${ctxName}"`);
  if (!clusterName) throw new KubeConfigError(`${path}: context "${ctxName}" names no cluster`);
  const cluster = findNamed(root['clusters'], clusterName, 'cluster', path);
  const user = userName ? findNamed(root['users'], userName, 'user', path) : {};
  const what = `${path}: cluster "${clusterName}"`;
  const server = optString(cluster, 'server', what);
  if (!server) throw new KubeConfigError(`${what} has no server URL`);
  if (user['exec'] !== undefined || user['auth-provider'] !== undefined) {
    throw new KubeConfigError(
      `${path}: user "${userName ?? ''}" uses an exec or auth-provider plugin, which haptic does not run; use a token or client certificate`,
    );
  }
  const base = dirname(path);
  const uwhat = `${path}: user "${userName ?? ''}"`;
  const caPem = readPem(
    base,
    optString(cluster, 'certificate-authority', what),
    optString(cluster, 'certificate-authority-data', what),
    'certificate-authority',
  );
  const clientCertPem = readPem(
    base,
    optString(user, 'client-certificate', uwhat),
    optString(user, 'client-certificate-data', uwhat),
    'client-certificate',
  );
  const clientKeyPem = readPem(
    base,
    optString(user, 'client-key', uwhat),
    optString(user, 'client-key-data', uwhat),
    'client-key',
  );
  const token = optString(user, 'token', uwhat);
  const tokenFileRaw = optString(user, 'tokenFile', uwhat);
  const tlsServerName = optString(cluster, 'tls-server-name', what);
  return {
    server: server.replace(/\/+$/, ''),
    ...(caPem !== undefined && { caPem }),
    ...(cluster['insecure-skip-tls-verify'] === true && { insecureSkipTlsVerify: true }),
    ...(token !== undefined && { token }),
    ...(tokenFileRaw !== undefined && {
      tokenFile: isAbsolute(tokenFileRaw) ? tokenFileRaw : join(base, tokenFileRaw),
    }),
    ...(clientCertPem !== undefined && { clientCertPem }),
    ...(clientKeyPem !== undefined && { clientKeyPem }),
    ...(tlsServerName !== undefined && { tlsServerName }),
  };
}

/** The in-cluster connection from the service account mount and KUBERNETES_SERVICE_* env. */
export function inClusterConnection(
  env: NodeJS.ProcessEnv = process.env,
  dir = SERVICE_ACCOUNT_DIR,
): ClusterConnection {
  const host = env['KUBERNETES_SERVICE_HOST'];
  const port = env['KUBERNETES_SERVICE_PORT'] ?? '443';
  if (!host)
    throw new KubeConfigError(
      'not running in a cluster: KUBERNETES_SERVICE_HOST is not set; pass --kubeconfig or set KUBECONFIG',
    );
  let caPem: string;
  try {
    caPem = readFileSync(join(dir, 'ca.crt'), 'utf8');
  } catch (err) {
    throw new KubeConfigError(`read service account CA ${join(dir, 'ca.crt')}`, { cause: err });
  }
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return { server: `https://${hostPart}:${port}`, caPem, tokenFile: join(dir, 'token') };
}

/**
 * Resolves the connection the way kubectl does: an explicit path, else the first file of
 * `KUBECONFIG`, else in-cluster when KUBERNETES_SERVICE_HOST is set, else `~/.kube/config`.
 */
export function resolveConnection(
  options: { kubeconfig?: string; context?: string; env?: NodeJS.ProcessEnv } = {},
): ClusterConnection {
  const env = options.env ?? process.env;
  const explicit = options.kubeconfig ?? env['KUBECONFIG']?.split(':').find(Boolean);
  if (explicit) return loadKubeConfigFile(explicit, options.context);
  if (env['KUBERNETES_SERVICE_HOST']) return inClusterConnection(env);
  return loadKubeConfigFile(join(homedir(), '.kube', 'config'), options.context);
}
