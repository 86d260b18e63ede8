/** Helpers around AbortSignal: abortable sleep, linked signals and throwing on abort. */
import { AbortedError } from './errors.js';

/** Resolves after `ms`, or rejects with AbortedError when `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError('sleep', { cause: signal.reason }));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortedError('sleep', { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Throws AbortedError naming `what` when the signal is already aborted. */
export function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw new AbortedError(what, { cause: signal.reason });
}

/**
 * A child controller that aborts when any parent signal aborts. Call `dispose()` when done so
 * the parent listeners are removed (long-lived parents would otherwise leak listeners).
 */
export function linkedController(...parents: (AbortSignal | undefined)[]): {
  controller: AbortController;
  dispose: () => void;
} {
  const controller = new AbortController();
  const cleanups: (() => void)[] = [];
  for (const parent of parents) {
    if (!parent) continue;
    if (parent.aborted) {
      controller.abort(parent.reason);
      break;
    }
    const onAbort = (): void => {
      controller.abort(parent.reason);
    };
    parent.addEventListener('abort', onAbort, { once: true });
    cleanups.push(() => {
      parent.removeEventListener('abort', onAbort);
    });
  }
  return {
    controller,
    dispose: () => {
      for (const c of cleanups) c();
    },
  };
}

/** Resolves when `signal` aborts (never rejects). */
export function abortPromise(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    signal.addEventListener(
      'abort',
      () => {
        resolve();
      },
      { once: true },
    );
  });
}
