/**
 * A thin HTTP client for the Kubernetes API: keep-alive transport, bearer token (re-read from
 * file) or client certificate, client-side rate limit, typed errors. Higher layers (list/watch,
 * informers, SSA) build on `request` and `stream`. See ../shared/design/STACK.md §2.3 for why the
 * project owns this layer.
 */
import { readFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { sleep } from '../../core/abort.js';
import { AbortedError } from '../../core/errors.js';
import type { ClusterConnection } from './kube-config.js';
import {
  kubeErrorFromResponse,
  KubeTimeoutError,
  KubeUnreachableError,
  type KubeStatus,
} from './kube-errors.js';
import { retryAfterMs } from './retry-after.js';
import { TokenBucket } from './token-bucket.js';

/** Options of a KubeClient. */
export interface KubeClientOptions {
  /** Requests per second (default 50; 0 disables the limit). */
  readonly qps?: number;
  /** Burst above qps (default 100). */
  readonly burst?: number;
  /** Default per-request timeout in ms (default 30,000); watches use their own. */
  readonly requestTimeoutMs?: number;
  /** User-Agent header (default `haptic`). */
  readonly userAgent?: string;
  /** How often a token file is re-read, ms (default 60,000). */
  readonly tokenRefreshMs?: number;
  /**
   * How many times `request` retries a 429 TooManyRequests after waiting its `Retry-After`
   * (default 3; 0 disables). A 429 means the server did not process the request, so every
   * method is retried.
   */
  readonly maxRetries429?: number;
  /** Upper bound of one `Retry-After` wait, ms (default 10,000). */
  readonly maxRetryAfterMs?: number;
}

/** One API request. `path` starts with `/api` or `/apis`; query values are strings. */
export interface KubeRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly query?: Readonly<Record<string, string | undefined>>;
  /** JSON-serialisable body. */
  readonly body?: unknown;
  /** Defaults to application/json when there is a body. */
  readonly contentType?: string;
  readonly signal?: AbortSignal;
  /** Overrides the client's default timeout; 0 means none (watches). */
  readonly timeoutMs?: number;
}

/** What most callers need of a KubeClient: one JSON request (tests substitute Fake* requesters). */
export type KubeRequester = Pick<KubeClient, 'request'>;

/** Builds `path?query` with encoded query values; undefined values are left out. */
export function buildUrlPath(
  path: string,
  query?: Readonly<Record<string, string | undefined>>,
): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.append(k, v);
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The HTTP client every Kubernetes call goes through. */
export class KubeClient {
  private readonly agent: Agent | HttpAgent;
  private readonly limiter: TokenBucket;
  private readonly url: URL;
  private cachedToken: { value: string | undefined; readAt: number } | undefined;

  constructor(
    readonly connection: ClusterConnection,
    private readonly options: KubeClientOptions = {},
  ) {
    this.url = new URL(connection.server);
    this.agent =
      this.url.protocol === 'http:'
        ? new HttpAgent({ keepAlive: true, maxSockets: 64 })
        : new Agent({
            keepAlive: true,
            maxSockets: 64,
            ...(connection.caPem !== undefined && { ca: connection.caPem }),
            ...(connection.clientCertPem !== undefined && { cert: connection.clientCertPem }),
            ...(connection.clientKeyPem !== undefined && { key: connection.clientKeyPem }),
            ...(connection.tlsServerName !== undefined && { servername: connection.tlsServerName }),
            rejectUnauthorized: connection.insecureSkipTlsVerify !== true,
          });
    this.limiter = new TokenBucket(options.qps ?? 50, options.burst ?? 100);
  }

  /** The API server's base URL. */
  get server(): string {
    return this.connection.server;
  }

  /** Current bearer token: inline, or from the token file (re-read every tokenRefreshMs). */
  private bearerToken(): string | undefined {
    if (this.connection.token !== undefined) return this.connection.token;
    const file = this.connection.tokenFile;
    if (file === undefined) return undefined;
    const now = Date.now();
    if (
      !this.cachedToken ||
      now - this.cachedToken.readAt >= (this.options.tokenRefreshMs ?? 60_000)
    ) {
      let value: string | undefined;
      try {
        value = readFileSync(file, 'utf8').trim();
      } catch {
        // Keep the last token: a rotated file is briefly missing during the kubelet's swap.
        value = this.cachedToken?.value;
      }
      this.cachedToken = { value, readAt: now };
    }
    return this.cachedToken.value;
  }

  /**
   * Sends a request and returns the parsed JSON body; throws a typed KubeApiError on >= 400.
   * A 429 is retried after its (bounded) `Retry-After`, at most `maxRetries429` times.
   */
  async request<T>(req: KubeRequest): Promise<T> {
    const retries = this.options.maxRetries429 ?? 3;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.requestOnce(req);
      if (!('tooManyRequests' in outcome)) return outcome.value as T;
      if (attempt >= retries) throw outcome.tooManyRequests;
      const waitMs = retryAfterMs(outcome.retryAfter, this.options.maxRetryAfterMs ?? 10_000);
      await sleep(waitMs, req.signal);
    }
  }

  /** One round trip; a 429 is returned (with its Retry-After) rather than thrown. */
  private async requestOnce(
    req: KubeRequest,
  ): Promise<{ value: unknown } | { tooManyRequests: Error; retryAfter: string | undefined }> {
    const timeoutMs = req.timeoutMs ?? this.options.requestTimeoutMs ?? 30_000;
    const res = await this.send(req);
    // The send timeout ends with the headers; a body that stalls afterwards needs its own.
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            res.destroy(
              new KubeTimeoutError(req, 0, {
                message: `response body not complete within ${timeoutMs} ms`,
              }),
            );
          }, timeoutMs)
        : undefined;
    let text: string;
    try {
      text = await readBody(res, this.connection.server, req.signal);
    } finally {
      if (timer) clearTimeout(timer);
    }
    const status = res.statusCode ?? 0;
    if (status === 429)
      return {
        tooManyRequests: errorFor(req, status, text),
        retryAfter: headerValue(res.headers['retry-after']),
      };
    if (status >= 400) throw errorFor(req, status, text);
    return { value: text.length ? (JSON.parse(text) as unknown) : undefined };
  }

  /**
   * Sends a request and returns the open response for streaming (watch); throws a typed error
   * on >= 400. The caller must consume or destroy the response.
   */
  async stream(req: KubeRequest): Promise<IncomingMessage> {
    const res = await this.send({ ...req, timeoutMs: req.timeoutMs ?? 0 });
    if ((res.statusCode ?? 0) >= 400) {
      const text = await readBody(res, this.connection.server, req.signal);
      throw errorFor(req, res.statusCode ?? 0, text);
    }
    return res;
  }

  /** Closes idle keep-alive connections. */
  close(): void {
    this.agent.destroy();
  }

  private async send(req: KubeRequest): Promise<IncomingMessage> {
    if (req.signal?.aborted)
      throw new AbortedError(`${req.method} ${req.path}`, { cause: req.signal.reason });
    await this.limiter.take(req.signal);
    const pathWithQuery = buildUrlPath(req.path, req.query);
    const body = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent ?? 'haptic',
    };
    const token = this.bearerToken();
    if (token) headers['authorization'] = `Bearer ${token}`;
    if (body) {
      headers['content-type'] = req.contentType ?? 'application/json';
      headers['content-length'] = String(body.length);
    }
    const timeoutMs = req.timeoutMs ?? this.options.requestTimeoutMs ?? 30_000;
    const doRequest = this.url.protocol === 'http:' ? httpRequest : httpsRequest;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const r = doRequest(
        {
          protocol: this.url.protocol,
          hostname: this.url.hostname.replace(/^\[|\]$/g, ''),
          port: this.url.port || (this.url.protocol === 'http:' ? 80 : 443),
          path: `${this.url.pathname.replace(/\/$/, '')}${pathWithQuery}`,
          method: req.method,
          headers,
          agent: this.agent,
          ...(req.signal !== undefined && { signal: req.signal }),
        },
        (res) => {
          if (timer) clearTimeout(timer);
          resolve(res);
        },
      );
      const timer =
        timeoutMs > 0
          ? setTimeout(() => {
              r.destroy(
                new KubeTimeoutError(req, 0, { message: `no response within ${timeoutMs} ms` }),
              );
            }, timeoutMs)
          : undefined;
      r.on('error', (err) => {
        if (timer) clearTimeout(timer);
        if (req.signal?.aborted)
          reject(new AbortedError(`${req.method} ${req.path}`, { cause: req.signal.reason }));
        else if (err instanceof KubeTimeoutError) reject(err);
        else reject(new KubeUnreachableError(this.connection.server, { cause: err }));
      });
      r.end(body);
    });
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function errorFor(req: KubeRequest, status: number, text: string): Error {
  let parsed: KubeStatus | undefined;
  try {
    const json = JSON.parse(text) as unknown;
    if (json && typeof json === 'object') parsed = json;
  } catch {
    parsed = { message: text.slice(0, 500) || `HTTP ${status}` };
  }
  return kubeErrorFromResponse(req, status, parsed);
}

/** Reads a whole response body; a broken connection becomes KubeUnreachableError. */
function readBody(res: IncomingMessage, server: string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    res.on('error', (err) => {
      if (signal?.aborted) reject(new AbortedError('read response', { cause: signal.reason }));
      else if (err instanceof KubeTimeoutError) reject(err);
      else reject(new KubeUnreachableError(server, { cause: err }));
    });
    res.on('close', () => {
      // No-op after 'end' or 'error' (a settled promise ignores it); catches a silent cut.
      if (res.complete) return;
      if (signal?.aborted) reject(new AbortedError('read response', { cause: signal.reason }));
      else
        reject(
          new KubeUnreachableError(server, {
            cause: new Error('connection closed before the response was complete'),
          }),
        );
    });
  });
}
