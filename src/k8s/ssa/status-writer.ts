/**
 * The status writer: every rule of ../shared/design/STATUS-OWNERSHIP.md in one place.
 *
 * - Sends only the fields the writer owns, as Apply on `/status` under one constant manager
 *   name, with force (rules 2, 9); never placeholders (P5).
 * - Skips the request when this manager's owned subset of the live object, read from
 *   managedFields, already equals the desired status after normalisation (rule 4, P6).
 * - Carries `lastTransitionTime` over while a condition's `status` is unchanged (rule 5, P7).
 * - Does not write when the live object records a newer observedGeneration (P9).
 * - Writes lists shared with other controllers (HTTPRoute `status.parents`, Ingress
 *   `status.loadBalancer.ingress`) read-modify-write under a resourceVersion precondition,
 *   touching only its own entries (rule 8, P8).
 * - Retries optimistic-lock 409s only, with backoff; 404 means the object is gone; 400, 422 and
 *   a 500 for an untypable body ("duplicate entries") are its own bugs and are never retried (rule 9).
 */
import { sleep } from '../../core/abort.js';
import { Backoff, type BackoffOptions } from '../../core/backoff.js';
import { rfc3339Seconds, systemClock, type Clock } from '../../core/clock.js';
import { ConflictError, InvalidError, KubeApiError, NotFoundError } from '../client/kube-errors.js';
import { apiVersionOf, resourcePath, type ApiResource } from '../client/api-resource.js';
import type { KubeRequester } from '../client/kube-client.js';
import { apply, type ApplyObject } from './apply.js';
import { newerObservedGeneration, entryIdentity, withTransitionTimes } from './conditions.js';
import { assertValidFieldManager } from './field-manager-name.js';
import { extractOwned, isRecord, managedFieldsOf } from './managed-fields.js';
import { normalisedEqual, stripEmpty } from './normalise.js';
import { StatusWriteConflictError } from './ssa-errors.js';

/** The object whose status is written. */
export interface StatusTarget {
  readonly resource: ApiResource;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

/** Why a write happened or did not. */
export type StatusWriteReason =
  /** The apply was sent and accepted. */
  | 'applied'
  /** The live owned subset already equals the desired status: no request sent. */
  | 'unchanged'
  /** The object (or its status subresource) does not exist: drop the work. */
  | 'not-found'
  /** The live object records a newer observedGeneration: wait for the next reconcile. */
  | 'stale-generation'
  /** The server rejected the body (400, 422, 500 duplicate entries): a bug, not retried. */
  | 'rejected';

/** Outcome of one status write; `written` counts requests that changed or claimed fields. */
export interface StatusWriteResult {
  readonly written: boolean;
  readonly reason: StatusWriteReason;
  /** Apply requests sent (0 when skipped; more than 1 after optimistic-lock retries). */
  readonly requests: number;
  /** resourceVersion after the write, or of the live object read. */
  readonly resourceVersion?: string;
  /** Human-readable detail (the stale field, the rejection message). */
  readonly detail?: string;
  /** The server's error for `rejected`. */
  readonly error?: KubeApiError;
}

/** Options of a StatusWriter. */
export interface StatusWriterOptions {
  /** The writer's one constant field manager name (P3). */
  readonly fieldManager: string;
  readonly clock?: Clock;
  /** Attempts per write when optimistic-lock conflicts occur (default 5). */
  readonly maxAttempts?: number;
  /** Delay between conflict retries (default 50 ms doubling to 1 s). */
  readonly backoff?: BackoffOptions;
  readonly random?: () => number;
}

/** Per-call options. */
export interface StatusWriteOptions {
  readonly signal?: AbortSignal;
  /**
   * The live object if the caller has a fresh copy (e.g. from an informer that keeps
   * managedFields); otherwise the writer GETs it. Used for the first attempt only, and only
   * when it carries `metadata.managedFields`: without them the owned subset is unknown.
   */
  readonly live?: LiveObject;
}

/** A list under `.status` that other controllers write too, and how to find our entries. */
export interface SharedListWrite {
  /** Path below `.status`, e.g. `['parents']` or `['loadBalancer', 'ingress']`. */
  readonly path: readonly string[];
  /** True for the live entries this writer owns (e.g. `e.controllerName === ours`). */
  readonly isOurs: (entry: unknown) => boolean;
  /** The complete set of our entries; ours not listed here are removed. */
  readonly entries: readonly unknown[];
}

/** The parts of a live object the writer reads (managedFields are read untyped). */
export interface LiveObject {
  readonly metadata?: { readonly resourceVersion?: string };
  readonly status?: unknown;
}

type Attempt = { done: StatusWriteResult } | { retry: true };

/** Writes status for one field manager. Construct once per writer; holds no per-object state. */
export class StatusWriter {
  private readonly clock: Clock;
  private readonly maxAttempts: number;

  constructor(
    private readonly client: KubeRequester,
    private readonly options: StatusWriterOptions,
  ) {
    assertValidFieldManager(options.fieldManager);
    this.clock = options.clock ?? systemClock;
    this.maxAttempts = options.maxAttempts ?? 5;
  }

  /** The field manager name this writer applies as. */
  get fieldManager(): string {
    return this.options.fieldManager;
  }

  /**
   * Applies `status` (only the fields this writer owns) to the target's `/status`, unless the
   * live owned subset already matches. Omitting a field this writer sent before releases it.
   */
  async write(
    target: StatusTarget,
    status: Readonly<Record<string, unknown>>,
    opts: StatusWriteOptions = {},
  ): Promise<StatusWriteResult> {
    return this.withRetries(target, opts, async (live, requests) => {
      const now = rfc3339Seconds(this.clock.now());
      const desired = stripEmpty(withTransitionTimes(status, live.status, now));
      const stale = newerObservedGeneration(desired, live.status);
      if (stale !== undefined)
        return this.result('stale-generation', false, requests, live, staleDetail(stale));
      const owned = this.ownedStatus(live);
      if (normalisedEqual(desired, owned)) return this.result('unchanged', false, requests, live);
      return this.send(target, desired, undefined, requests, opts.signal);
    });
  }

  /**
   * Read-modify-write of a list that other controllers share (an atomic list): our entries
   * replace our live entries in place, new ones are appended, foreign entries stay as read, and
   * the apply carries the live resourceVersion so a concurrent foreign write makes it fail
   * (optimistic lock) instead of being lost. The body also repeats this manager's other owned
   * status fields so the apply does not release them.
   */
  async writeSharedList(
    target: StatusTarget,
    list: SharedListWrite,
    opts: StatusWriteOptions = {},
  ): Promise<StatusWriteResult> {
    return this.withRetries(target, opts, async (live, requests) => {
      const now = rfc3339Seconds(this.clock.now());
      const liveList = getPath(live.status, list.path);
      const liveEntries = Array.isArray(liveList) ? liveList : [];
      const ours = (withTransitionTimes(list.entries, liveEntries, now) as unknown[]).map((e) =>
        stripEmpty(e),
      );
      const stale = newerObservedGeneration(ours, liveEntries, `status.${list.path.join('.')}`);
      if (stale !== undefined)
        return this.result('stale-generation', false, requests, live, staleDetail(stale));
      const merged = mergeOwnEntries(liveEntries, ours, list.isOurs);
      if (normalisedEqual(merged, liveEntries))
        return this.result('unchanged', false, requests, live);
      const owned = this.ownedStatus(live);
      const body = setPath(isRecord(owned) ? owned : {}, list.path, merged);
      return this.send(target, body, live.metadata?.resourceVersion, requests, opts.signal);
    });
  }

  private ownedStatus(live: LiveObject): unknown {
    return extractOwned(live, { manager: this.options.fieldManager, subresource: 'status' })[
      'status'
    ];
  }

  private async withRetries(
    target: StatusTarget,
    opts: StatusWriteOptions,
    attempt: (live: LiveObject, requests: number) => Promise<Attempt | StatusWriteResult>,
  ): Promise<StatusWriteResult> {
    const backoff = new Backoff(
      this.options.backoff ?? { initialMs: 50, maxMs: 1000 },
      this.options.random,
    );
    let live = opts.live && managedFieldsOf(opts.live).length > 0 ? opts.live : undefined;
    let requests = 0;
    for (let i = 0; i < this.maxAttempts; i++) {
      if (live === undefined) {
        try {
          live = await this.get(target, opts.signal);
        } catch (err) {
          if (err instanceof NotFoundError) return this.result('not-found', false, requests);
          throw err;
        }
      }
      const out = await attempt(live, requests);
      if ('reason' in out) return out;
      if ('done' in out) return out.done;
      requests += 1;
      live = undefined;
      await sleep(backoff.next(), opts.signal);
    }
    throw new StatusWriteConflictError(
      `status of ${target.resource.resource} ${target.namespace ? `${target.namespace}/` : ''}${target.name}: optimistic-lock conflicts in ${this.maxAttempts} attempts`,
    );
  }

  private async send(
    target: StatusTarget,
    status: unknown,
    resourceVersion: string | undefined,
    requestsBefore: number,
    signal: AbortSignal | undefined,
  ): Promise<Attempt> {
    const requests = requestsBefore + 1;
    const body: ApplyObject = {
      apiVersion: apiVersionOf(target.resource),
      kind: target.kind,
      metadata: {
        name: target.name,
        ...(target.namespace !== undefined && { namespace: target.namespace }),
        ...(resourceVersion !== undefined && { resourceVersion }),
      },
      ...(status !== undefined && { status }),
    };
    try {
      const res = await apply<LiveObject>(this.client, target.resource, body, {
        fieldManager: this.options.fieldManager,
        force: true,
        subresource: 'status',
        ...(signal !== undefined && { signal }),
      });
      return { done: this.result('applied', true, requests, res) };
    } catch (err) {
      if (err instanceof NotFoundError) return { done: this.result('not-found', false, requests) };
      if (err instanceof ConflictError && err.conflictKind === 'optimistic-lock')
        return { retry: true };
      if (err instanceof InvalidError || isUntypableBody(err))
        return {
          done: {
            ...this.result('rejected', false, requests, undefined, (err as KubeApiError).message),
            error: err as KubeApiError,
          },
        };
      throw err;
    }
  }

  private async get(target: StatusTarget, signal: AbortSignal | undefined): Promise<LiveObject> {
    return this.client.request<LiveObject>({
      method: 'GET',
      path: resourcePath(target.resource, target.namespace, target.name),
      ...(signal !== undefined && { signal }),
    });
  }

  private result(
    reason: StatusWriteReason,
    written: boolean,
    requests: number,
    obj?: LiveObject,
    detail?: string,
  ): StatusWriteResult {
    const rv = obj?.metadata?.resourceVersion;
    return {
      written,
      reason,
      requests,
      ...(rv !== undefined && { resourceVersion: rv }),
      ...(detail !== undefined && { detail }),
    };
  }
}

/** Why a write was skipped as stale: the live object carries a newer observedGeneration. */
function staleDetail(stale: string): string {
  return `newer ${stale} on the live object`;
}

/**
 * The API server answers an apply body it cannot type (duplicate list-map keys, a field the
 * schema does not declare) with a 500 today (kubernetes PR #139255 would make it a 400). It is
 * our bug either way: retrying the same body cannot help.
 */
function isUntypableBody(err: unknown): boolean {
  return (
    err instanceof KubeApiError &&
    err.statusCode === 500 &&
    /duplicate entries|failed to create typed patch object/i.test(err.message)
  );
}

/**
 * Our entries replace our live entries at their positions (paired by identity), ours that are
 * no longer wanted are dropped, new ones are appended; foreign entries are never touched.
 */
export function mergeOwnEntries(
  live: readonly unknown[],
  ours: readonly unknown[],
  isOurs: (entry: unknown) => boolean,
): unknown[] {
  const wanted = new Map<string, unknown>();
  const unpaired: unknown[] = [];
  for (const e of ours) {
    const id = entryIdentity(e);
    if (id === undefined) unpaired.push(e);
    else wanted.set(id, e);
  }
  const out: unknown[] = [];
  for (const e of live) {
    if (!isOurs(e)) {
      out.push(e);
      continue;
    }
    const id = entryIdentity(e);
    if (id !== undefined && wanted.has(id)) {
      out.push(wanted.get(id));
      wanted.delete(id);
    }
  }
  return [...out, ...wanted.values(), ...unpaired];
}

function getPath(value: unknown, path: readonly string[]): unknown {
  let cur = value;
  for (const p of path) cur = isRecord(cur) ? cur[p] : undefined;
  return cur;
}

function setPath(
  root: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined) return root;
  const child = root[head];
  return {
    ...root,
    [head]: rest.length ? setPath(isRecord(child) ? child : {}, rest, value) : value,
  };
}
