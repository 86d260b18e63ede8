/**
 * Starts, tracks and stops the components of one controller iteration (port of HAPTIC
 * pkg/lifecycle).
 *
 * - All-replica components start in dependency order in `startAll()`; each waits for its
 *   dependencies to be ready. Cycles and unknown dependencies are rejected before anything
 *   starts.
 * - Leader-only components start when `leadershipWon()` is called and stop on
 *   `leadershipLost()`. Leadership is level-based: the registry converges on the last wish, one
 *   transition at a time. While leader-only components start, the bus is paused so what the
 *   all-replica components publish meanwhile (for example state replayed on `leader.became`)
 *   is buffered and delivered after the newcomers have subscribed.
 * - A critical component failing resolves `whenCriticalFailure()`, which ends the iteration.
 * - `stopAll()` stops everything in reverse start order.
 */
import type { Logger } from 'pino';

import { describeError, InvalidArgumentError } from '../core/errors.js';
import type { Component, ComponentState, Criticality, HealthReport } from './component.js';
import { ComponentFailedError, DependencyCycleError, InvalidDependencyError } from './errors.js';

/** How a component is registered. */
export interface RegisterOptions {
  /** Run only while this replica leads; default `component.needsLeaderElection ?? false`. */
  readonly isLeaderOnly?: boolean;
  /** Names of components that must be ready before this one starts. */
  readonly dependsOn?: readonly string[];
  /** Default `critical`. */
  readonly criticality?: Criticality;
}

/** One row of `status()`. */
export interface ComponentStatus {
  readonly name: string;
  readonly state: ComponentState;
  readonly isLeaderOnly: boolean;
  readonly criticality: Criticality;
  readonly health: HealthReport;
  /** Message of the failure when `state` is `failed`. */
  readonly error?: string;
}

/** The part of the event bus the registry drives around leadership transitions. */
export interface PausableBus {
  readonly isStarted: boolean;
  pause(): void;
  start(): void;
}

/** Registry dependencies. */
export interface LifecycleRegistryDeps {
  readonly logger: Logger;
  /** Paused while leader-only components start; omit when there is no bus to gate. */
  readonly bus?: PausableBus;
}

interface Entry {
  readonly component: Component;
  readonly isLeaderOnly: boolean;
  readonly dependsOn: readonly string[];
  readonly criticality: Criticality;
  state: ComponentState;
  error: unknown;
  controller: AbortController | undefined;
  done: Promise<void> | undefined;
}

/** Reads the state through a call: it changes across awaits, which TS narrowing cannot see. */
function stateOf(entry: Entry): ComponentState {
  return entry.state;
}

/** See the module comment. */
export class LifecycleRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly logger: Logger;
  private readonly bus: PausableBus | undefined;
  private order: Entry[] = [];
  private isStarted = false;
  private isStopping = false;
  private wantsLeadership = false;
  private isLeading = false;
  private shouldResumeBus = false;
  private leaderChain: Promise<void> = Promise.resolve();
  private reportFailure: (err: ComponentFailedError) => void = () => undefined;
  private readonly criticalFailure: Promise<ComponentFailedError>;

  constructor(deps: LifecycleRegistryDeps) {
    this.logger = deps.logger;
    this.bus = deps.bus;
    this.criticalFailure = new Promise((resolve) => {
      this.reportFailure = resolve;
    });
  }

  /**
   * Adds a component. Throws InvalidArgumentError for a duplicate name or registration after
   * `startAll()`.
   */
  register(component: Component, options: RegisterOptions = {}): this {
    if (this.isStarted) {
      throw new InvalidArgumentError(`register ${component.name}: registry already started`);
    }
    if (this.entries.has(component.name)) {
      throw new InvalidArgumentError(`component ${component.name} is registered twice`);
    }
    const needsLeader = (component as { needsLeaderElection?: unknown }).needsLeaderElection;
    this.entries.set(component.name, {
      component,
      isLeaderOnly: options.isLeaderOnly ?? needsLeader === true,
      dependsOn: options.dependsOn ?? [],
      criticality: options.criticality ?? 'critical',
      state: 'pending',
      error: undefined,
      controller: undefined,
      done: undefined,
    });
    return this;
  }

  /**
   * Validates dependencies and starts the all-replica components in dependency order,
   * resolving when all are ready. Throws DependencyCycleError / InvalidDependencyError before
   * starting anything, and ComponentFailedError when a critical component fails to start.
   */
  async startAll(signal: AbortSignal): Promise<void> {
    if (this.isStarted) throw new InvalidArgumentError('registry already started');
    this.order = this.resolveOrder();
    this.isStarted = true;
    for (const entry of this.order) {
      if (entry.isLeaderOnly) continue;
      if (signal.aborted || this.isStopping) return;
      await this.startEntry(entry, signal);
    }
    await this.convergeLeadership();
  }

  /** This replica won the leader election: start the leader-only components. */
  leadershipWon(): Promise<void> {
    this.wantsLeadership = true;
    // Pause now, synchronously: events published before the leader-only components have
    // subscribed must wait for them (see the module comment).
    if (this.isStarted && !this.isStopping && this.bus?.isStarted === true) {
      this.bus.pause();
      this.shouldResumeBus = true;
    }
    return this.convergeLeadership();
  }

  /** This replica lost (or gave up) leadership: stop the leader-only components. */
  leadershipLost(): Promise<void> {
    this.wantsLeadership = false;
    return this.convergeLeadership();
  }

  /** True while the leader-only components run. */
  get isLeader(): boolean {
    return this.isLeading;
  }

  /** Resolves with the error of the first critical component that fails. */
  whenCriticalFailure(): Promise<ComponentFailedError> {
    return this.criticalFailure;
  }

  /** Stops every running component in reverse start order; resolves when all have settled. */
  async stopAll(): Promise<void> {
    this.isStopping = true;
    await this.leaderChain;
    for (const entry of [...this.order].reverse()) await this.stopEntry(entry);
    this.isLeading = false;
    this.resumeBus();
  }

  /** Status of every component in start order (registration order before `startAll()`). */
  status(): ComponentStatus[] {
    const entries = this.order.length > 0 ? this.order : [...this.entries.values()];
    return entries.map((e) => ({
      name: e.component.name,
      state: e.state,
      isLeaderOnly: e.isLeaderOnly,
      criticality: e.criticality,
      health: this.healthOf(e),
      ...(e.error === undefined ? {} : { error: describeError(e.error) }),
    }));
  }

  /**
   * Healthy when every critical component that should run is running and passes its own
   * health check. Leader-only components count only while leading.
   */
  isHealthy(): boolean {
    for (const entry of this.entries.values()) {
      if (entry.criticality !== 'critical') continue;
      if (entry.isLeaderOnly && !this.isLeading) continue;
      if (entry.state !== 'running' || !this.healthOf(entry).isHealthy) return false;
    }
    return this.isStarted && !this.isStopping;
  }

  private healthOf(entry: Entry): HealthReport {
    if (entry.state === 'failed') return { isHealthy: false, reason: 'failed' };
    if (entry.state !== 'running') return { isHealthy: true };
    try {
      return entry.component.healthCheck?.() ?? { isHealthy: true };
    } catch (err) {
      return { isHealthy: false, reason: `health check threw: ${String(err)}` };
    }
  }

  private convergeLeadership(): Promise<void> {
    this.leaderChain = this.leaderChain
      .then(() => this.applyLeadership())
      .catch((err: unknown) => {
        this.logger.error({ err }, 'leadership transition failed');
      });
    return this.leaderChain;
  }

  private async applyLeadership(): Promise<void> {
    try {
      if (!this.isStarted || this.isStopping) return;
      if (this.wantsLeadership && !this.isLeading) {
        this.isLeading = true;
        if (this.bus?.isStarted === true) {
          this.bus.pause();
          this.shouldResumeBus = true;
        }
        const term = new AbortController();
        for (const entry of this.order) {
          if (!entry.isLeaderOnly || this.isHalting()) continue;
          await this.startEntry(entry, term.signal);
        }
        this.logger.info('leader-only components started');
      } else if (!this.wantsLeadership && this.isLeading) {
        this.isLeading = false;
        for (const entry of [...this.order].reverse()) {
          if (entry.isLeaderOnly) await this.stopEntry(entry);
        }
        this.logger.info('leader-only components stopped');
      }
    } finally {
      this.resumeBus();
    }
  }

  /** Read through a method: the flag flips across awaits, which TS narrowing cannot see. */
  private isHalting(): boolean {
    return this.isStopping;
  }

  private resumeBus(): void {
    if (!this.shouldResumeBus) return;
    this.shouldResumeBus = false;
    this.bus?.start();
  }

  private async startEntry(entry: Entry, parent: AbortSignal): Promise<void> {
    const controller = new AbortController();
    const onParentAbort = (): void => {
      controller.abort(parent.reason);
    };
    parent.addEventListener('abort', onParentAbort, { once: true });
    entry.controller = controller;
    entry.state = 'starting';
    entry.error = undefined;
    const { component } = entry;
    const done = Promise.resolve()
      .then(() => component.start(controller.signal))
      .then(
        () => {
          entry.state = 'stopped';
        },
        (err: unknown) => {
          this.markFailed(entry, err);
        },
      )
      .finally(() => {
        parent.removeEventListener('abort', onParentAbort);
      });
    entry.done = done;
    try {
      await Promise.race([component.whenReady?.(controller.signal), done]);
      if (stateOf(entry) === 'starting') entry.state = 'running';
    } catch (err) {
      this.markFailed(entry, err);
      controller.abort(err);
    }
    if (stateOf(entry) === 'failed' && entry.criticality === 'critical') {
      throw new ComponentFailedError(component.name, { cause: entry.error });
    }
  }

  private async stopEntry(entry: Entry): Promise<void> {
    const { controller, done } = entry;
    if (controller === undefined || done === undefined) return;
    if (entry.state === 'starting' || entry.state === 'running') entry.state = 'stopping';
    controller.abort();
    await done;
    entry.controller = undefined;
    entry.done = undefined;
  }

  private markFailed(entry: Entry, err: unknown): void {
    if (entry.state === 'failed') return;
    const isStopping = entry.state === 'stopping';
    entry.state = 'failed';
    entry.error = err;
    const fields = { err, component: entry.component.name, criticality: entry.criticality };
    if (entry.criticality === 'optional') this.logger.warn(fields, 'component failed');
    else this.logger.error(fields, 'component failed');
    if (entry.criticality === 'critical' && !isStopping && !this.isStopping) {
      this.reportFailure(new ComponentFailedError(entry.component.name, { cause: err }));
    }
  }

  /** Topological order (stable by registration); throws on cycles and bad dependencies. */
  private resolveOrder(): Entry[] {
    for (const entry of this.entries.values()) {
      for (const dep of entry.dependsOn) {
        const target = this.entries.get(dep);
        if (target === undefined) {
          throw new InvalidDependencyError(entry.component.name, dep, 'not registered');
        }
        if (target.isLeaderOnly && !entry.isLeaderOnly) {
          throw new InvalidDependencyError(
            entry.component.name,
            dep,
            'an all-replica component cannot depend on a leader-only one',
          );
        }
      }
    }
    const order: Entry[] = [];
    const visiting: string[] = [];
    const done = new Set<string>();
    const visit = (entry: Entry): void => {
      const { name } = entry.component;
      if (done.has(name)) return;
      const at = visiting.indexOf(name);
      if (at !== -1) throw new DependencyCycleError([...visiting.slice(at), name]);
      visiting.push(name);
      for (const dep of entry.dependsOn) visit(this.entries.get(dep) as Entry);
      visiting.pop();
      done.add(name);
      order.push(entry);
    };
    for (const entry of this.entries.values()) visit(entry);
    return order;
  }
}
