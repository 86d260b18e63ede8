/**
 * The list-then-watch loop that keeps a sink in step with one collection, the way client-go's
 * reflector does, with the failure handling the official JavaScript client lacks:
 *
 * - list page by page, then watch from the list's resourceVersion with `allowWatchBookmarks`
 *   and a server `timeoutSeconds` spread between 1x and 2x `watchTimeoutSeconds`;
 * - advance the resourceVersion on every event including BOOKMARK (an opaque string);
 * - on 410 Gone (HTTP status or ERROR event) relist and hand the sink the whole list, which
 *   computes synthetic delete/update/add events by uid;
 * - on any other failure report to `onError` and retry with exponential backoff and jitter;
 * - abort a watch that is silent for `inactivityMs` and reconnect;
 * - stop only when the signal aborts.
 */
import { linkedController, sleep } from '../../core/abort.js';
import { Backoff, type BackoffOptions } from '../../core/backoff.js';
import { AbortedError } from '../../core/errors.js';
import { GoneError } from '../client/kube-errors.js';
import type { KubeObject, WatchEvent } from '../client/kube-object.js';
import { WatchInactiveError, WatchStreamError } from './informer-errors.js';
import { listAll } from './list-pages.js';
import type { ListWatchTransport } from './list-watch-transport.js';

/** Receives what the reflector learns. Both calls are synchronous. */
export interface ReflectorSink {
  /** A complete list replaces the sink's content (initial list and every relist). */
  replace(items: KubeObject[], resourceVersion: string): void;
  /** One watch event. */
  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: KubeObject): void;
}

/** Options of a Reflector. */
export interface ReflectorOptions {
  readonly labelSelector?: string;
  /** List page size (default 500). */
  readonly pageSize?: number;
  /** Base of the server-side watch timeout; the real one is 1x..2x this (default 300). */
  readonly watchTimeoutSeconds?: number;
  /** Reconnect when no event arrives for this long (default 90,000 ms, above bookmark cadence). */
  readonly inactivityMs?: number;
  /** Reconnect backoff (default 500 ms doubling to 30 s, 50 % jitter). */
  readonly backoff?: BackoffOptions;
  /** Told about every failure; the reflector retries regardless. Must not throw. */
  readonly onError?: (err: unknown) => void;
  /** Randomness for jitter (tests). */
  readonly random?: () => number;
}

/** Counters a caller can export as metrics. */
export interface ReflectorStats {
  lists: number;
  watches: number;
  events: number;
  bookmarks: number;
  errors: number;
  gone: number;
}

/** Keeps a ReflectorSink in step with a collection until the signal aborts. */
export class Reflector {
  private rv = '';
  /** Counters since construction. */
  readonly stats: ReflectorStats = {
    lists: 0,
    watches: 0,
    events: 0,
    bookmarks: 0,
    errors: 0,
    gone: 0,
  };

  constructor(
    private readonly transport: ListWatchTransport,
    private readonly sink: ReflectorSink,
    private readonly options: ReflectorOptions = {},
  ) {}

  /** The last resourceVersion seen (list, event or bookmark); '' before the first list. */
  get resourceVersion(): string {
    return this.rv;
  }

  /** Runs until `signal` aborts; never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    const backoff = new Backoff(
      this.options.backoff ?? { initialMs: 500, maxMs: 30_000 },
      this.options.random,
    );
    let needList = true;
    while (!signal.aborted) {
      try {
        if (needList) {
          await this.list(signal);
          needList = false;
          backoff.reset();
        }
        const events = await this.watchOnce(signal);
        if (events > 0) {
          backoff.reset();
          continue;
        }
        // A watch that ends at once without a single event must not become a hot loop.
        await sleep(backoff.next(), signal);
      } catch (err) {
        if (isAborted(signal)) break;
        this.stats.errors++;
        this.report(err);
        if (err instanceof GoneError) {
          this.stats.gone++;
          needList = true;
        }
        await sleep(backoff.next(), signal).catch(() => undefined);
      }
    }
  }

  private report(err: unknown): void {
    try {
      this.options.onError?.(err);
    } catch {
      // A throwing error callback must not stop the watch.
    }
  }

  private async list(signal: AbortSignal): Promise<void> {
    const result = await listAll(
      this.transport,
      {
        ...(this.options.pageSize !== undefined && { pageSize: this.options.pageSize }),
        ...(this.options.labelSelector !== undefined && {
          labelSelector: this.options.labelSelector,
        }),
      },
      signal,
    );
    this.stats.lists++;
    this.rv = result.resourceVersion;
    this.sink.replace(result.items, result.resourceVersion);
  }

  /** One watch from the current resourceVersion; resolves with the event count on a normal end. */
  private async watchOnce(signal: AbortSignal): Promise<number> {
    const base = this.options.watchTimeoutSeconds ?? 300;
    const random = this.options.random ?? Math.random;
    const timeoutSeconds = Math.max(1, Math.floor(base * (1 + random())));
    const inactivityMs = this.options.inactivityMs ?? 90_000;
    // linkedController also covers a parent that aborted while the list was in flight.
    const { controller: child, dispose } = linkedController(signal);
    const state = { inactive: false };
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        state.inactive = true;
        child.abort(new WatchInactiveError(this.transport.description, inactivityMs));
      }, inactivityMs);
    };
    let count = 0;
    try {
      if (child.signal.aborted) throw new AbortedError(`watch ${this.transport.description}`);
      arm();
      this.stats.watches++;
      const stream = await this.transport.watch(
        {
          resourceVersion: this.rv,
          timeoutSeconds,
          ...(this.options.labelSelector !== undefined && {
            labelSelector: this.options.labelSelector,
          }),
        },
        child.signal,
      );
      for await (const event of stream) {
        arm();
        count++;
        this.handle(event);
      }
      if (state.inactive) throw new WatchInactiveError(this.transport.description, inactivityMs);
      return count;
    } catch (err) {
      if (state.inactive) throw new WatchInactiveError(this.transport.description, inactivityMs);
      if (signal.aborted) throw new AbortedError(`watch ${this.transport.description}`);
      throw err;
    } finally {
      if (timer) clearTimeout(timer);
      dispose();
      child.abort();
    }
  }

  private handle(event: WatchEvent): void {
    this.stats.events++;
    if (event.type === 'ERROR') {
      const status = event.object;
      const req = { method: 'WATCH', path: this.transport.description };
      if (status.code === 410 || status.reason === 'Expired' || status.reason === 'Gone')
        throw new GoneError(req, 410, status);
      throw new WatchStreamError(
        `watch ${this.transport.description}: ERROR event ${String(status.code ?? '')} ${status.reason ?? ''}: ${status.message ?? ''}`,
      );
    }
    const rv = event.object.metadata?.resourceVersion;
    if (event.type === 'BOOKMARK') {
      this.stats.bookmarks++;
      if (rv) this.rv = rv;
      return;
    }
    this.sink.apply(event.type, event.object);
    if (rv) this.rv = rv;
  }
}

/** Reads `aborted` afresh (TypeScript narrows the property across awaits otherwise). */
function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}
