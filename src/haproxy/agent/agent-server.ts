/**
 * The agent's HTTP API on node:http (or node:https with a certificate):
 * `GET /healthz` (open, for probes), and behind the bearer token `GET /metrics` (Prometheus), `GET /v1/state` and
 * `POST /v1/apply`. Bodies are limited in size and parsed strictly; every refusal is a JSON
 * body with a `reason`.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { describeError } from '../../core/errors.js';
import type { AgentApplier } from './agent-applier.js';
import { AgentBadRequestError } from './agent-errors.js';
import type { AgentLogger } from './agent-logger.js';
import type { AgentMetrics } from './agent-metrics.js';
import { parseApplyRequest } from './apply-request.js';
import { bearerTokenMatches } from './bearer-token.js';

/** Options of {@link createAgentServer}. */
export interface AgentServerOptions {
  readonly applier: AgentApplier;
  readonly metrics: AgentMetrics;
  readonly logger: AgentLogger;
  readonly token: string;
  readonly haproxyVersion: string;
  /** Largest accepted request body in bytes (default 64 MiB). */
  readonly maxBodyBytes?: number;
  /** Serve HTTPS with this certificate and key (PEM). */
  readonly tls?: { readonly cert: Buffer; readonly key: Buffer };
  /** Aborts in-flight applies when the agent stops. */
  readonly signal?: AbortSignal;
}

/** Default body limit: room for a full config set with certificates, base64-encoded. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

class BodyTooLargeError extends Error {}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > limit) {
      reject(new BodyTooLargeError());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (b: Buffer) => {
      if (failed) return;
      size += b.length;
      if (size > limit) {
        failed = true;
        reject(new BodyTooLargeError());
        return;
      }
      chunks.push(b);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (err) => {
      if (!failed) reject(err);
    });
  });
}

/** Builds the server (not listening yet). */
export function createAgentServer(opts: AgentServerOptions): Server {
  const limit = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((err: unknown) => {
      opts.logger.error({ err: describeError(err) }, 'agent request failed');
      if (!res.headersSent)
        send(res, 500, { reason: 'internal_error', message: describeError(err) });
      else res.destroy();
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/healthz') {
      if (req.method !== 'GET') {
        send(res, 405, { reason: 'method_not_allowed' });
        return;
      }
      send(res, 200, { status: 'ok' });
      return;
    }
    if (path !== '/metrics' && !path.startsWith('/v1/')) {
      send(res, 404, { reason: 'not_found' });
      return;
    }
    // Everything but /healthz (the kubelet's probe, which reveals nothing) needs the token: the
    // agent listens on the pod network, and every listening endpoint is authenticated.
    if (!bearerTokenMatches(req.headers.authorization, opts.token)) {
      opts.metrics.rejections.inc({ reason: 'unauthorized' });
      // Drain nothing: close the connection so an unauthenticated body is never read.
      send(
        res,
        401,
        { reason: 'unauthorized' },
        { 'www-authenticate': 'Bearer', connection: 'close' },
      );
      return;
    }
    if (path === '/metrics') {
      if (req.method !== 'GET') {
        send(res, 405, { reason: 'method_not_allowed' });
        return;
      }
      const text = await opts.metrics.registry.metrics();
      res.writeHead(200, { 'content-type': opts.metrics.registry.contentType });
      res.end(text);
      return;
    }
    if (path === '/v1/state') {
      if (req.method !== 'GET') {
        send(res, 405, { reason: 'method_not_allowed' });
        return;
      }
      send(res, 200, { ...opts.applier.view(), haproxyVersion: opts.haproxyVersion });
      return;
    }
    if (path === '/v1/apply') {
      if (req.method !== 'POST') {
        send(res, 405, { reason: 'method_not_allowed' });
        return;
      }
      let raw: Buffer;
      try {
        raw = await readBody(req, limit);
      } catch (err) {
        if (err instanceof BodyTooLargeError) {
          opts.metrics.rejections.inc({ reason: 'body_too_large' });
          send(res, 413, { reason: 'body_too_large', limit }, { connection: 'close' });
          return;
        }
        throw err;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString('utf8'));
      } catch (err) {
        opts.metrics.rejections.inc({ reason: 'malformed_json' });
        send(res, 400, { reason: 'malformed_json', message: describeError(err) });
        return;
      }
      let request;
      try {
        request = parseApplyRequest(parsed);
      } catch (err) {
        if (err instanceof AgentBadRequestError) {
          opts.metrics.rejections.inc({ reason: err.reason });
          send(res, 400, { reason: err.reason, message: err.message });
          return;
        }
        throw err;
      }
      const out = await opts.applier.apply(request, opts.signal);
      opts.logger.info({ planId: request.planId, status: out.status, ...out.body }, 'apply');
      send(res, out.status, out.body);
      return;
    }
    send(res, 404, { reason: 'not_found' });
  };

  return opts.tls
    ? createHttpsServer({ cert: opts.tls.cert, key: opts.tls.key }, handler)
    : createHttpServer(handler);
}
