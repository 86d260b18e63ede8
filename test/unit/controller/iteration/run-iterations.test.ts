import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { Component } from '../../../../src/component/component.js';
import {
  EventComponent,
  type EventComponentDeps,
} from '../../../../src/component/event-component.js';
import { DeadlineExceededError } from '../../../../src/core/errors.js';
import { createEvent } from '../../../../src/controller/events/create-event.js';
import type {
  DomainEvent,
  DomainEventOf,
} from '../../../../src/controller/events/domain-events.js';
import {
  runIterations,
  type IterationContext,
  type IterationObserver,
} from '../../../../src/controller/iteration/run-iterations.js';
import { FakeLogSink } from '../../component/fake-log-sink.js';

const tick = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (event-loop turns, no wall-clock bound) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; !condition(); turn++) {
    if (turn > 10_000) throw new Error('condition never held');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Records start/stop into a journal; stopping takes `stopDelayMs` (or forever when stuck). */
class FakeTestComponent implements Component {
  constructor(
    readonly name: string,
    private readonly journal: string[],
    private readonly stopDelayMs = 0,
    private readonly isStuck = false,
  ) {}

  async start(signal: AbortSignal): Promise<void> {
    this.journal.push(`start ${this.name}`);
    await new Promise((resolve) => {
      signal.addEventListener('abort', resolve, { once: true });
    });
    this.journal.push(`stopping ${this.name}`);
    if (this.isStuck) await new Promise(() => undefined);
    await tick(this.stopDelayMs);
    this.journal.push(`stopped ${this.name}`);
  }
}

/** Reacts to config.validated the way the config-change handler will: asks to reinitialize. */
class FakeConfigChangeHandler extends EventComponent<DomainEvent, 'config.validated'> {
  constructor(
    deps: EventComponentDeps<DomainEvent>,
    private readonly context: IterationContext,
    private readonly journal: string[],
  ) {
    super(deps, { name: 'config-change-handler', types: ['config.validated'] });
  }
  protected override handleEvent(event: DomainEventOf<'config.validated'>): void {
    this.journal.push(`config ${event.configVersion} validated`);
    this.context.requestReinitialization(`config ${event.configVersion}`);
  }
}

/** A health server created once, outside the iterations; it only swaps its checker. */
class FakeHealthServer implements IterationObserver {
  static instances = 0;
  readonly seenIterations: number[] = [];
  private check: () => boolean = () => false;
  constructor() {
    FakeHealthServer.instances++;
  }
  iterationStarted(context: IterationContext): void {
    this.seenIterations.push(context.iteration);
    this.check = () => context.registry.isHealthy();
  }
  iterationStopped(): void {
    this.check = () => false;
  }
  isHealthy(): boolean {
    return this.check();
  }
}

describe('runIterations', () => {
  it('a reinitialization triggered mid-flight finishes the old iteration before the new one starts', async () => {
    const sink = new FakeLogSink();
    const journal: string[] = [];
    const shutdown = new AbortController();
    const contexts: IterationContext[] = [];
    const result = await runIterations({
      signal: shutdown.signal,
      logger: sink.logger,
      retryDelayMs: 1,
      buildIteration: (ctx) => {
        contexts.push(ctx);
        journal.push(`build ${ctx.iteration}`);
        const deps = { bus: ctx.bus, logger: ctx.logger };
        ctx.registry.register(new FakeTestComponent(`watcher-${ctx.iteration}`, journal, 20));
        ctx.registry.register(new FakeConfigChangeHandler(deps, ctx, journal));
        if (ctx.iteration === 1) {
          // Published before bus.start(): replayed once the iteration runs, mid-flight.
          ctx.bus.publish(createEvent('config.validated', { config: {}, configVersion: 'v2' }));
        }
      },
      observers: [
        {
          iterationStarted: (ctx) => {
            if (ctx.iteration === 2) shutdown.abort();
          },
        },
      ],
    });
    assert.equal(result.iterations, 2);
    assert.deepEqual(journal, [
      'build 1',
      'start watcher-1',
      'config v2 validated',
      'stopping watcher-1',
      'stopped watcher-1',
      'build 2',
      'start watcher-2',
      'stopping watcher-2',
      'stopped watcher-2',
    ]);
    assert.notEqual(contexts[0]?.bus, contexts[1]?.bus, 'a fresh bus per iteration');
    assert.notEqual(contexts[0]?.registry, contexts[1]?.registry, 'a fresh registry per iteration');
    assert.notEqual(contexts[0]?.metrics, contexts[1]?.metrics, 'fresh metrics per iteration');
    assert.equal(contexts[0]?.signal.aborted, true);
    assert.equal(sink.withMessage('reinitializing controller')[0]?.['reason'], 'config v2');
  });

  it('keeps long-lived servers outside the iterations and hands them each new registry', async () => {
    const sink = new FakeLogSink();
    const shutdown = new AbortController();
    FakeHealthServer.instances = 0;
    const health = new FakeHealthServer();
    const healthDuring: boolean[] = [];
    await runIterations({
      signal: shutdown.signal,
      logger: sink.logger,
      observers: [
        health,
        {
          iterationStarted: (ctx) => {
            healthDuring.push(health.isHealthy());
            if (ctx.iteration < 3) ctx.requestReinitialization('test');
            else shutdown.abort();
          },
        },
      ],
      buildIteration: (ctx) => {
        ctx.registry.register(new FakeTestComponent('watcher', []));
      },
    });
    assert.equal(FakeHealthServer.instances, 1);
    assert.deepEqual(health.seenIterations, [1, 2, 3]);
    assert.deepEqual(healthDuring, [true, true, true]);
    assert.equal(health.isHealthy(), false, 'no iteration runs after shutdown');
  });

  it('retries after a failed iteration and stops cleanly on shutdown', async () => {
    const sink = new FakeLogSink();
    const shutdown = new AbortController();
    const built: number[] = [];
    const result = await runIterations({
      signal: shutdown.signal,
      logger: sink.logger,
      retryDelayMs: 1,
      buildIteration: (ctx) => {
        built.push(ctx.iteration);
        if (ctx.iteration === 1) throw new Error('config not found');
        ctx.registry.register(new FakeTestComponent('watcher', []));
        void tick(1).then(() => {
          shutdown.abort();
        });
      },
    });
    assert.deepEqual(built, [1, 2]);
    assert.equal(result.iterations, 2);
    assert.match(
      String(sink.withMessage('controller iteration failed')[0]?.['msg']),
      /config not found/,
    );
  });

  it('ends the iteration when a critical component fails at runtime and starts a new one', async () => {
    const sink = new FakeLogSink();
    const shutdown = new AbortController();
    const result = await runIterations({
      signal: shutdown.signal,
      logger: sink.logger,
      retryDelayMs: 1,
      buildIteration: (ctx) => {
        if (ctx.iteration === 1) {
          ctx.registry.register({
            name: 'crasher',
            start: async () => {
              await tick(1);
              throw new Error('watch stream broke');
            },
          });
        } else {
          ctx.registry.register(new FakeTestComponent('watcher', []));
          void tick(1).then(() => {
            shutdown.abort();
          });
        }
      },
    });
    assert.equal(result.iterations, 2);
    assert.equal(sink.withMessage('controller iteration failed').length, 1);
  });

  it('bounds shutdown, logging progress and naming the component that does not stop', async () => {
    const sink = new FakeLogSink();
    const shutdown = new AbortController();
    const journal: string[] = [];
    const running = runIterations({
      signal: shutdown.signal,
      logger: sink.logger,
      shutdownTimeoutMs: 120,
      shutdownProgressIntervalMs: 25,
      observers: [
        {
          iterationStarted: () => {
            shutdown.abort();
          },
        },
      ],
      buildIteration: (ctx) => {
        ctx.registry.register(new FakeTestComponent('stuck-deployer', journal, 0, true));
      },
    });
    await assert.rejects(running, DeadlineExceededError);
    const progress = sink.withMessage('waiting for components to stop');
    assert.ok(progress.length >= 1, 'at least one progress line');
    assert.deepEqual(progress[0]?.['pending'], ['stuck-deployer']);
    assert.deepEqual(sink.withMessage('did not stop in time')[0]?.['pending'], ['stuck-deployer']);
  });

  it('starts leader-only components when leader.became is published on the iteration bus', async () => {
    const sink = new FakeLogSink();
    const shutdown = new AbortController();
    const journal: string[] = [];
    await runIterations({
      signal: shutdown.signal,
      logger: sink.logger,
      observers: [
        {
          iterationStarted: (ctx) => {
            void (async () => {
              const deployerState = (): string | undefined =>
                ctx.registry.status().find((c) => c.name === 'deployer')?.state;
              ctx.bus.publish(createEvent('leader.became', { identity: 'pod-a', epoch: 1 }));
              await until(() => deployerState() === 'running');
              journal.push(`leader ${ctx.registry.isLeader}`);
              ctx.bus.publish(createEvent('leader.lost', { identity: 'pod-a', reason: 'test' }));
              await until(() => deployerState() === 'stopped');
              journal.push(`leader ${ctx.registry.isLeader}`);
              shutdown.abort();
            })();
          },
        },
      ],
      buildIteration: (ctx) => {
        ctx.registry.register(new FakeTestComponent('deployer', journal), { isLeaderOnly: true });
      },
    });
    assert.deepEqual(journal, [
      'start deployer',
      'leader true',
      'stopping deployer',
      'stopped deployer',
      'leader false',
    ]);
  });
});
