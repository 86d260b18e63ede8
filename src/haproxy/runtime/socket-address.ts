/** Where a HAProxy CLI socket listens: a unix socket path or a TCP host and port. */
import { InvalidArgumentError } from '../../core/errors.js';

/** A parsed CLI socket address. */
export type SocketAddress =
  | { readonly kind: 'unix'; readonly path: string }
  | { readonly kind: 'tcp'; readonly host: string; readonly port: number };

/**
 * Parses `unix@/path`, `/path`, `./path`, `tcp@host:port`, `ipv4@host:port` or `host:port`
 * (IPv6 as `[::1]:port`).
 */
export function parseSocketAddress(text: string): SocketAddress {
  const value = text.trim();
  if (value.startsWith('unix@')) return unixAddress(value.slice(5), text);
  if (value.startsWith('/') || value.startsWith('./') || value.startsWith('../')) {
    return unixAddress(value, text);
  }
  const hostPort = value.replace(/^(tcp|ipv4|ipv6)@/, '');
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(hostPort);
  const host = m?.[1] ?? m?.[2];
  const port = Number(m?.[3]);
  if (!host || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new InvalidArgumentError(
      `socket address "${text}" is neither a unix socket path nor host:port`,
    );
  }
  return { kind: 'tcp', host, port };
}

function unixAddress(path: string, original: string): SocketAddress {
  if (!path) throw new InvalidArgumentError(`socket address "${original}" has an empty path`);
  return { kind: 'unix', path };
}

/** A short human-readable form for messages. */
export function formatSocketAddress(address: SocketAddress): string {
  return address.kind === 'unix' ? `unix@${address.path}` : `${address.host}:${address.port}`;
}
