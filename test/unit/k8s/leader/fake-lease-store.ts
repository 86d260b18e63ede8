/** In-memory LeaseStore and a manual timeline for driving LeaseElector in unit tests. */
import { AbortedError } from '../../../../src/core/errors.js';
import type { Clock } from '../../../../src/core/clock.js';
import { ConflictError } from '../../../../src/k8s/client/kube-errors.js';
import type { Lease, LeaseSpec, LeaseStore } from '../../../../src/k8s/leader/lease.js';

function conflict(reason: string): ConflictError {
  return new ConflictError({ method: 'PUT', path: '/leases/x' }, 409, {
    reason,
    message: reason,
  });
}

/** One stored Lease with the API server's resourceVersion semantics. */
export class FakeLeaseStore implements LeaseStore {
  readonly description = 'test/fake-lease';
  lease: Lease | undefined;
  private rv = 0;
  /** Errors thrown by the next calls, in order. */
  readonly failNext: Error[] = [];
  /** While true, every call waits until its signal aborts or `unhang()`. */
  hang = false;
  private hung: (() => void)[] = [];
  /** Called after a call was admitted, before it takes effect (to inject races). */
  beforeWrite: (() => void) | undefined;
  readonly calls: string[] = [];

  /** Writes the lease as another replica would. */
  put(spec: LeaseSpec): Lease {
    this.rv += 1;
    this.lease = { metadata: { name: 'fake-lease', resourceVersion: String(this.rv) }, spec };
    return this.lease;
  }

  private async admit(what: string, signal: AbortSignal): Promise<void> {
    this.calls.push(what);
    await Promise.resolve();
    const err = this.failNext.shift();
    if (err) throw err;
    if (this.hang) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => {
          reject(new AbortedError(what));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        this.hung.push(() => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
    if (signal.aborted) throw new AbortedError(what);
  }

  /** Lets hung calls proceed and stops hanging new ones. */
  unhang(): void {
    this.hang = false;
    for (const release of this.hung.splice(0)) release();
  }

  async get(signal: AbortSignal): Promise<Lease | undefined> {
    await this.admit('get', signal);
    return this.lease;
  }

  async create(spec: LeaseSpec, signal: AbortSignal): Promise<Lease> {
    await this.admit('create', signal);
    this.beforeWrite?.();
    if (this.lease) throw conflict('AlreadyExists');
    return this.put(spec);
  }

  async update(spec: LeaseSpec, resourceVersion: string, signal: AbortSignal): Promise<Lease> {
    await this.admit('update', signal);
    this.beforeWrite?.();
    if (this.lease?.metadata.resourceVersion !== resourceVersion) throw conflict('Conflict');
    return this.put(spec);
  }
}

interface Timer {
  readonly at: number;
  readonly seq: number;
  readonly resolve: () => void;
}

/** Drains pending promise callbacks (the fake store resolves through microtasks only). */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}

/** A clock and abortable sleep whose time moves only through `advance`. */
export class FakeTimeline implements Clock {
  private t = 0;
  private seq = 0;
  private timers: Timer[] = [];
  private readonly base = Date.UTC(2026, 0, 1);

  now(): number {
    return this.base + this.t;
  }

  monotonic(): number {
    return this.t;
  }

  readonly sleep = (ms: number, signal: AbortSignal): Promise<void> =>
    new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(new AbortedError('sleep'));
        return;
      }
      const onAbort = (): void => {
        this.timers = this.timers.filter((x) => x !== timer);
        reject(new AbortedError('sleep'));
      };
      const timer: Timer = {
        at: this.t + ms,
        seq: this.seq++,
        resolve: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.timers.push(timer);
      signal.addEventListener('abort', onAbort, { once: true });
    });

  /** Moves time forward by `ms`, firing due timers in order and letting their work run. */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    await flush();
    for (;;) {
      const due = this.timers
        .filter((x) => x.at <= target)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = Math.max(this.t, due.at);
      due.resolve();
      await flush();
    }
    this.t = target;
    await flush();
  }
}
