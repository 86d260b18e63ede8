/**
 * Scatter-gather over the bus: publish one request, collect the answers of named responders
 * until enough have answered or the deadline passes, and say who stayed silent. Used for config
 * validation (several validators must each approve) and webhook dry-runs.
 */
import { AbortedError, InvalidArgumentError } from '../core/errors.js';
import type { BusEvent, RequestEvent, ResponseEvent } from './bus-event.js';

/** Options of one scatter-gather request. */
export interface RequestOptions {
  /** Deadline for answers; default 10,000 ms. */
  readonly timeoutMs?: number;
  /** Responders expected to answer; those that do not are listed in `missing`. */
  readonly expectedResponders: readonly string[];
  /**
   * Distinct responders after which the request completes early; default all expected
   * responders. With no expected responders the request always runs to its deadline.
   */
  readonly minResponses?: number;
  /** Only events of these types count as answers; default any event echoing the request id. */
  readonly responseTypes?: readonly string[];
  /** Aborting rejects the request with AbortedError. */
  readonly signal?: AbortSignal;
}

/** Outcome of a request: the answers (first one per responder) and the silent responders. */
export interface RequestResult<R> {
  readonly responses: readonly R[];
  /** Expected responders that did not answer, in the order they were expected. */
  readonly missing: readonly string[];
  /** True when the deadline passed before `minResponses` distinct responders answered. */
  readonly isTimedOut: boolean;
}

/** The part of the bus a request needs; keeps this module free of the bus class. */
export interface RequestTransport<E extends BusEvent> {
  observe(name: string, types: readonly string[], fn: (event: E) => void): () => void;
  publish(event: E): number;
}

/** Default deadline of a request, as in HAPTIC. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

function isResponseTo(event: BusEvent, requestId: string): event is ResponseEvent {
  const candidate = event as Partial<ResponseEvent>;
  return candidate.requestId === requestId && typeof candidate.responder === 'string';
}

/**
 * Publishes `request` and gathers responses. Resolves (never rejects) on completion or timeout;
 * rejects with AbortedError when `options.signal` aborts, and with InvalidArgumentError for
 * impossible options.
 */
export function scatterGather<E extends BusEvent, R extends E & ResponseEvent>(
  transport: RequestTransport<E>,
  request: E & RequestEvent,
  options: RequestOptions,
): Promise<RequestResult<R>> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const expected = options.expectedResponders;
  const minResponses =
    options.minResponses ?? (expected.length > 0 ? expected.length : Number.POSITIVE_INFINITY);
  if (!(timeoutMs > 0) || minResponses < 1) {
    return Promise.reject(
      new InvalidArgumentError(
        `request ${request.type}: timeoutMs must be > 0 and minResponses >= 1`,
      ),
    );
  }
  const { signal } = options;
  if (signal?.aborted) {
    return Promise.reject(new AbortedError(`request ${request.type}`, { cause: signal.reason }));
  }

  return new Promise((resolve, reject) => {
    const byResponder = new Map<string, R>();
    let stopObserving: () => void = () => undefined;
    const finish = (isTimedOut: boolean): void => {
      cleanup();
      resolve({
        responses: [...byResponder.values()],
        missing: expected.filter((name) => !byResponder.has(name)),
        isTimedOut,
      });
    };
    const onAbort = (): void => {
      cleanup();
      reject(new AbortedError(`request ${request.type}`, { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      finish(true);
    }, timeoutMs);
    const cleanup = (): void => {
      clearTimeout(timer);
      stopObserving();
      signal?.removeEventListener('abort', onAbort);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    stopObserving = transport.observe(
      `request:${request.requestId}`,
      options.responseTypes ?? [],
      (event) => {
        if (event === request || !isResponseTo(event, request.requestId)) return;
        if (byResponder.has(event.responder)) return;
        byResponder.set(event.responder, event as R);
        if (byResponder.size >= minResponses) finish(false);
      },
    );
    transport.publish(request);
  });
}
