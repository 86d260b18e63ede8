/**
 * Leader election on a coordination.k8s.io/v1 Lease, in the manner of client-go's
 * leaderelection package, with an epoch (fencing token) per leadership term.
 *
 * Safety rests on two clocks that run at the same rate, never on clock agreement between
 * replicas:
 * - a candidate judges expiry by when *it* last saw the lease change, plus the lease's
 *   `leaseDurationSeconds`;
 * - the leader stops acting `renewDeadline` after the *start* of its last successful write,
 *   even while a renew request hangs. Because renewDeadline < leaseDuration, the leader has
 *   stopped before any candidate can believe the lease expired.
 *
 * Every term starts with a write that increments `spec.leaseTransitions`; that number is the
 * epoch handed to `onStartedLeading`. Consumers (the HAPTIC agent) refuse writes carrying an
 * epoch lower than the highest they have seen. Deleting the Lease object resets the count;
 * nothing in the project deletes it.
 */
import { sleep as realSleep } from '../../core/abort.js';
import { systemClock, type Clock } from '../../core/clock.js';
import { HapticError, InvalidArgumentError } from '../../core/errors.js';
import { ConflictError } from '../client/kube-errors.js';
import { microTime, type Lease, type LeaseSpec, type LeaseStore } from './lease.js';

/** Default lease duration: how long a silent leader keeps the lease (client-go default). */
export const DEFAULT_LEASE_DURATION_MS = 15_000;
/** Default renew deadline: how long a leader keeps acting without a successful renewal. */
export const DEFAULT_RENEW_DEADLINE_MS = 10_000;
/** Default retry period: pause between acquire or renew attempts. */
export const DEFAULT_RETRY_PERIOD_MS = 2_000;

/** What the elector was doing when an error happened. */
export type ElectorPhase = 'acquire' | 'renew' | 'release' | 'callback';

/** Callbacks of a LeaseElector. None may throw into the elector; errors go to `onError`. */
export interface LeaderCallbacks {
  /**
   * This replica became leader with `epoch`. `signal` aborts when the term ends (lost, renew
   * deadline passed, or shutdown); work started here must stop when it fires.
   */
  readonly onStartedLeading: (epoch: number, signal: AbortSignal) => void | Promise<void>;
  /** The term ended; called after the term's signal aborted and before any release. */
  readonly onStoppedLeading?: () => void;
  /** A different holder (this replica included) was observed on the lease. */
  readonly onNewLeader?: (identity: string) => void;
}

/** Options of a LeaseElector. */
export interface LeaseElectorOptions {
  readonly store: LeaseStore;
  /** Written to `spec.holderIdentity`; unique per replica (see leaderIdentity()). */
  readonly identity: string;
  readonly callbacks: LeaderCallbacks;
  /** Default 15,000 ms; written to the lease rounded up to whole seconds. */
  readonly leaseDurationMs?: number;
  /** Default 10,000 ms; must be less than leaseDurationMs. */
  readonly renewDeadlineMs?: number;
  /** Default 2,000 ms; must be less than renewDeadlineMs. */
  readonly retryPeriodMs?: number;
  /**
   * On shutdown (the run signal aborts) write an empty holder so a standby takes over at its
   * next poll rather than after leaseDuration (default true).
   */
  readonly releaseOnCancel?: boolean;
  readonly clock?: Clock;
  /** Abortable sleep; injectable so unit tests drive time. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Errors the elector survives by retrying (API errors, callback failures). */
  readonly onError?: (err: unknown, phase: ElectorPhase) => void;
}

/** The reason a leadership term's signal aborts when the lease could not be kept. */
export class LeadershipLostError extends HapticError {
  readonly code = 'HAPTIC_ERR_LEADERSHIP_LOST';
}

/** Reads `aborted` afresh; TypeScript would otherwise keep a narrowing across awaits. */
function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

interface Observation {
  readonly key: string;
  readonly holder: string;
  readonly durationMs: number;
  /** Monotonic time this elector first saw this record. */
  readonly at: number;
}

interface Holding {
  readonly epoch: number;
  /** Monotonic time after which this replica must no longer act as leader. */
  validUntil: number;
}

/** Elects one leader among replicas sharing a Lease. Construct, then `run(signal)`. */
export class LeaseElector {
  /** The identity written to the lease. */
  readonly identity: string;
  private readonly store: LeaseStore;
  private readonly callbacks: LeaderCallbacks;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private readonly releaseOnCancel: boolean;
  private readonly clock: Clock;
  private readonly sleepFn: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly onError: (err: unknown, phase: ElectorPhase) => void;

  private lease: Lease | undefined;
  private observed: Observation | undefined;
  private holding: Holding | undefined;

  constructor(options: LeaseElectorOptions) {
    this.identity = options.identity;
    this.store = options.store;
    this.callbacks = options.callbacks;
    this.leaseDurationMs = options.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS;
    this.renewDeadlineMs = options.renewDeadlineMs ?? DEFAULT_RENEW_DEADLINE_MS;
    this.retryPeriodMs = options.retryPeriodMs ?? DEFAULT_RETRY_PERIOD_MS;
    this.releaseOnCancel = options.releaseOnCancel ?? true;
    this.clock = options.clock ?? systemClock;
    this.sleepFn = options.sleep ?? realSleep;
    this.onError = options.onError ?? (() => undefined);
    if (this.identity === '') throw new InvalidArgumentError('leader election: identity is empty');
    if (!(this.retryPeriodMs > 0))
      throw new InvalidArgumentError('leader election: retryPeriod must be positive');
    if (!(this.renewDeadlineMs > this.retryPeriodMs))
      throw new InvalidArgumentError(
        `leader election: renewDeadline (${this.renewDeadlineMs} ms) must exceed retryPeriod (${this.retryPeriodMs} ms)`,
      );
    if (!(this.leaseDurationMs > this.renewDeadlineMs))
      throw new InvalidArgumentError(
        `leader election: leaseDuration (${this.leaseDurationMs} ms) must exceed renewDeadline (${this.renewDeadlineMs} ms)`,
      );
  }

  /** True while this replica holds the lease and its renew deadline has not passed. */
  get isLeader(): boolean {
    return this.holding !== undefined && this.clock.monotonic() < this.holding.validUntil;
  }

  /** The epoch of the current term while leader, else undefined. */
  get epoch(): number | undefined {
    return this.isLeader ? this.holding?.epoch : undefined;
  }

  /** The holder last seen on the lease ('' when free or never read). */
  get observedLeader(): string {
    return this.observed?.holder ?? '';
  }

  /**
   * One acquisition attempt: takes the lease when it is missing, free, expired or names this
   * identity from an earlier term. Resolves to the new epoch, or undefined when another holder
   * has it or a concurrent candidate won the race (409). API errors are thrown.
   */
  async tryAcquire(signal: AbortSignal): Promise<number | undefined> {
    if (this.holding) return (await this.tryRenew(signal)) ? this.holding.epoch : undefined;
    const start = this.clock.monotonic();
    const now = microTime(this.clock.now());
    const live = await this.store.get(signal);
    if (!live) {
      try {
        return this.becameHolder(
          await this.store.create(this.holderSpec(1, now, now), signal),
          start,
        );
      } catch (err) {
        if (err instanceof ConflictError) return undefined;
        throw err;
      }
    }
    this.seen(live);
    const holder = live.spec.holderIdentity ?? '';
    if (holder !== '' && holder !== this.identity && !this.observedExpired()) return undefined;
    const epoch = (live.spec.leaseTransitions ?? 0) + 1;
    try {
      const updated = await this.store.update(
        this.holderSpec(epoch, now, now),
        live.metadata.resourceVersion ?? '',
        signal,
      );
      return this.becameHolder(updated, start);
    } catch (err) {
      if (err instanceof ConflictError) return undefined;
      throw err;
    }
  }

  /**
   * One renewal attempt while holding. Resolves true when renewed, false when the lease is
   * definitely someone else's (or this term already ended); throws on API errors.
   */
  async tryRenew(signal: AbortSignal): Promise<boolean> {
    const held = this.holding;
    const lease = this.lease;
    if (!held || !lease) return false;
    const start = this.clock.monotonic();
    const spec: LeaseSpec = { ...lease.spec, ...this.renewFields() };
    let updated: Lease;
    try {
      updated = await this.store.update(spec, lease.metadata.resourceVersion ?? '', signal);
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      // Someone wrote the lease. Still ours (an annotation edit, say)? Then renew on top of it.
      const live = await this.store.get(signal);
      if (live) this.seen(live);
      if (
        !live ||
        live.spec.holderIdentity !== this.identity ||
        live.spec.leaseTransitions !== held.epoch
      ) {
        if (this.holding === held) this.holding = undefined;
        return false;
      }
      updated = await this.store.update(
        { ...live.spec, ...this.renewFields() },
        live.metadata.resourceVersion ?? '',
        signal,
      );
    }
    // The term may have ended (renew deadline) while the request was in flight: a late
    // success does not revive it; the next acquisition starts a new epoch.
    if (this.holding !== held) return false;
    this.lease = updated;
    this.seen(updated);
    held.validUntil = start + this.renewDeadlineMs;
    return true;
  }

  /**
   * Gives the lease up: writes an empty holder (keeping leaseTransitions) so a standby takes
   * over at once. Resolves true when released, false when the lease was not ours.
   */
  async release(signal: AbortSignal): Promise<boolean> {
    this.holding = undefined;
    let lease = this.lease;
    if (lease?.spec.holderIdentity !== this.identity) return false;
    const epoch = lease.spec.leaseTransitions;
    const now = microTime(this.clock.now());
    const released: LeaseSpec = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: now,
      renewTime: now,
      ...(epoch !== undefined && { leaseTransitions: epoch }),
    };
    for (let attempt = 0; ; attempt++) {
      try {
        const updated = await this.store.update(
          released,
          lease.metadata.resourceVersion ?? '',
          signal,
        );
        this.lease = updated;
        this.seen(updated);
        return true;
      } catch (err) {
        if (!(err instanceof ConflictError)) throw err;
        // A renewal aborted by the shutdown may still have landed and moved the
        // resourceVersion: release on top of it if the lease is still this term's.
        const live = attempt === 0 ? await this.store.get(signal) : undefined;
        if (live?.spec.holderIdentity !== this.identity || live.spec.leaseTransitions !== epoch) {
          if (live) this.seen(live);
          return false;
        }
        lease = live;
      }
    }
  }

  /**
   * Campaigns until `signal` aborts: acquire, lead while renewals succeed, and after losing
   * the lease campaign again. On abort the current term ends, `onStoppedLeading` runs and the
   * lease is released (unless releaseOnCancel is false). Never rejects.
   */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const epoch = await this.campaign(signal);
      if (epoch === undefined) break;
      await this.lead(epoch, signal);
    }
  }

  private async campaign(signal: AbortSignal): Promise<number | undefined> {
    while (!signal.aborted) {
      try {
        const epoch = await this.tryAcquire(signal);
        if (epoch !== undefined) return epoch;
      } catch (err) {
        if (isAborted(signal)) break;
        this.onError(err, 'acquire');
      }
      await this.pause(this.candidateDelayMs(), signal);
    }
    return undefined;
  }

  private async lead(epoch: number, signal: AbortSignal): Promise<void> {
    const term = new AbortController();
    const onAbort = (): void => {
      term.abort(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const started = this.startCallback(epoch, term.signal);
    const watchdog = this.watchRenewDeadline(term);
    while (!term.signal.aborted) {
      await this.pause(this.retryPeriodMs, term.signal);
      if (isAborted(term.signal)) break;
      try {
        if (!(await this.tryRenew(term.signal))) {
          term.abort(new LeadershipLostError(`lease ${this.store.description} taken over`));
        }
      } catch (err) {
        if (!isAborted(term.signal)) this.onError(err, 'renew');
      }
    }
    signal.removeEventListener('abort', onAbort);
    await watchdog;
    const graceful = signal.aborted && this.releaseOnCancel;
    this.holding = undefined;
    try {
      this.callbacks.onStoppedLeading?.();
    } catch (err) {
      this.onError(err, 'callback');
    }
    if (graceful) {
      // Let the term's work wind down before a successor may start, within renewDeadline.
      await this.boundedWait(started, this.renewDeadlineMs);
      try {
        await this.release(AbortSignal.timeout(this.renewDeadlineMs));
      } catch (err) {
        this.onError(err, 'release');
      }
    }
  }

  private startCallback(epoch: number, signal: AbortSignal): Promise<void> {
    return (async () => {
      await this.callbacks.onStartedLeading(epoch, signal);
    })().catch((err: unknown) => {
      this.onError(err, 'callback');
    });
  }

  /** Ends the term the moment the renew deadline passes, even while a renewal hangs. */
  private async watchRenewDeadline(term: AbortController): Promise<void> {
    while (!term.signal.aborted) {
      const held = this.holding;
      const left = held ? held.validUntil - this.clock.monotonic() : 0;
      if (left <= 0) {
        this.holding = undefined;
        term.abort(
          new LeadershipLostError(
            `lease ${this.store.description} not renewed within ${this.renewDeadlineMs} ms`,
          ),
        );
        return;
      }
      await this.pause(left, term.signal);
    }
  }

  private async boundedWait(work: Promise<void>, ms: number): Promise<void> {
    const timer = new AbortController();
    await Promise.race([work, this.pause(ms, timer.signal)]);
    timer.abort();
  }

  /** Sleeps; resolves early (never rejects) when the signal aborts. */
  private async pause(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    try {
      await this.sleepFn(ms, signal);
    } catch {
      // aborted
    }
  }

  /** Wake exactly when the observed holder's lease runs out, or after retryPeriod. */
  private candidateDelayMs(): number {
    const obs = this.observed;
    if (!obs || obs.holder === '') return this.retryPeriodMs;
    const left = obs.at + obs.durationMs - this.clock.monotonic();
    return left > 0 ? Math.min(this.retryPeriodMs, left + 1) : this.retryPeriodMs;
  }

  private observedExpired(): boolean {
    const obs = this.observed;
    return obs === undefined || obs.at + obs.durationMs <= this.clock.monotonic();
  }

  /** Records a read or written lease; a changed record restarts the expiry clock. */
  private seen(lease: Lease): void {
    const s = lease.spec;
    const holder = s.holderIdentity ?? '';
    const key = JSON.stringify([
      holder,
      s.renewTime,
      s.acquireTime,
      s.leaseTransitions,
      s.leaseDurationSeconds,
    ]);
    const previous = this.observed;
    if (previous?.key === key) return;
    this.observed = {
      key,
      holder,
      durationMs:
        s.leaseDurationSeconds !== undefined && s.leaseDurationSeconds > 0
          ? s.leaseDurationSeconds * 1000
          : this.leaseDurationMs,
      at: this.clock.monotonic(),
    };
    if (holder !== '' && holder !== previous?.holder) {
      try {
        this.callbacks.onNewLeader?.(holder);
      } catch (err) {
        this.onError(err, 'callback');
      }
    }
  }

  private becameHolder(lease: Lease, start: number): number {
    this.lease = lease;
    this.seen(lease);
    const epoch = lease.spec.leaseTransitions ?? 0;
    this.holding = { epoch, validUntil: start + this.renewDeadlineMs };
    return epoch;
  }

  private holderSpec(epoch: number, acquireTime: string, renewTime: string): LeaseSpec {
    return {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.max(1, Math.ceil(this.leaseDurationMs / 1000)),
      acquireTime,
      renewTime,
      leaseTransitions: epoch,
    };
  }

  private renewFields(): LeaseSpec {
    return {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.max(1, Math.ceil(this.leaseDurationMs / 1000)),
      renewTime: microTime(this.clock.now()),
    };
  }
}
