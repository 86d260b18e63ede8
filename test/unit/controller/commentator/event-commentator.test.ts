import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { EventBus } from '../../../../src/bus/event-bus.js';
import { EventCommentator } from '../../../../src/controller/commentator/event-commentator.js';
import { sanitizeForLog } from '../../../../src/controller/commentator/sanitize-for-log.js';
import { createEvent } from '../../../../src/controller/events/create-event.js';
import type { DomainEvent } from '../../../../src/controller/events/domain-events.js';
import { FakeLogSink } from '../../component/fake-log-sink.js';

const PRIVATE_KEY =
  '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----';
const PASSWORD = 'hunter2-very-secret';
const TOKEN = 'tok-3f9a8b7c6d5e';

function setup(historySize?: number): {
  bus: EventBus<DomainEvent>;
  sink: FakeLogSink;
  commentator: EventCommentator;
  stop: () => Promise<void>;
} {
  const sink = new FakeLogSink();
  const bus = new EventBus<DomainEvent>({ logger: sink.logger });
  const commentator = new EventCommentator({
    bus,
    logger: sink.logger,
    ...(historySize === undefined ? {} : { historySize }),
  });
  const controller = new AbortController();
  const done = commentator.start(controller.signal);
  bus.start();
  return {
    bus,
    sink,
    commentator,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

describe('EventCommentator', () => {
  it('logs one domain-aware JSON line per event with its type, ids and level', async () => {
    const { bus, sink, stop } = setup();
    const trigger = createEvent('reconciliation.triggered', {
      reason: 'Ingress changed',
      isCoalescible: true,
    });
    const failed = createEvent(
      'reconciliation.failed',
      { phase: 'render', error: 'undefined variable', statusPatches: [] },
      { cause: trigger },
    );
    bus.publish(trigger);
    bus.publish(failed);
    bus.publish(createEvent('leader.lost', { identity: 'pod-a', reason: 'lease taken' }));
    await bus.whenIdle();
    const lines = sink.lines.filter((l) => l['component'] === 'commentator');
    assert.equal(lines.length, 3);
    assert.deepEqual(
      lines.map((l) => [l['eventType'], l['level'], l['msg']]),
      [
        ['reconciliation.triggered', 'info', 'reconciliation triggered: Ingress changed'],
        ['reconciliation.failed', 'error', 'reconciliation failed in render: undefined variable'],
        ['leader.lost', 'warn', 'lost leadership (pod-a): lease taken'],
      ],
    );
    assert.equal(lines[1]?.['correlationId'], trigger.id);
    assert.equal(lines[0]?.['sinceChainStartMs'], undefined);
    assert.equal(lines[1]['sinceChainStartMs'], failed.timestamp - trigger.timestamp);
    assert.equal(lines[1]['causationId'], trigger.id);
    await stop();
  });

  it('keeps the newest events in a ring buffer searchable by correlation id', async () => {
    const { bus, commentator, stop } = setup(3);
    const first = createEvent('reconciliation.triggered', { reason: 'a', isCoalescible: true });
    const second = createEvent('reconciliation.triggered', { reason: 'b', isCoalescible: true });
    bus.publish(first);
    bus.publish(second);
    bus.publish(createEvent('reconciliation.started', { reason: 'b' }, { cause: second }));
    bus.publish(createEvent('reconciliation.completed', { durationMs: 4 }, { cause: second }));
    await bus.whenIdle();
    assert.equal(commentator.recent().length, 3, 'the oldest event fell out of the buffer');
    assert.deepEqual(commentator.findByCorrelation(first.id), []);
    assert.deepEqual(
      commentator.findByCorrelation(second.id).map((e) => e.eventType),
      ['reconciliation.triggered', 'reconciliation.started', 'reconciliation.completed'],
    );
    assert.deepEqual(
      commentator.findByCorrelation(second.id, 1).map((e) => e.eventType),
      ['reconciliation.completed'],
    );
    await stop();
  });

  it('never logs or keeps secrets, whatever field they travel in', async () => {
    const { bus, sink, commentator, stop } = setup();
    bus.publish(
      createEvent('credentials.updated', {
        secretVersion: '42',
        credentials: { username: 'admin', password: PASSWORD, token: TOKEN },
      }),
    );
    bus.publish(
      createEvent('cert.parsed', {
        version: '7',
        certPem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
        keyPem: PRIVATE_KEY,
        notAfter: '2030-01-01T00:00:00Z',
      }),
    );
    // A key pasted into a free-text field is caught by its shape.
    bus.publish(createEvent('config.publish.failed', { checksum: 'sha256:x', error: PRIVATE_KEY }));
    bus.publish(
      createEvent('config.parsed', {
        configVersion: '9',
        config: {
          agent: { apiKey: TOKEN, tls: { privateKey: PRIVATE_KEY } },
          auth: { password: PASSWORD },
        },
      }),
    );
    await bus.whenIdle();
    assert.equal(commentator.recent().length, 4);
    const everything = sink.raw.join('\n') + JSON.stringify(commentator.recent());
    for (const secret of [PASSWORD, TOKEN, 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 'BEGIN PRIVATE']) {
      assert.equal(everything.includes(secret), false, `leaked ${secret}`);
    }
    assert.ok(everything.includes('[REDACTED]'));
    await stop();
  });

  it('is lossy: when it falls behind it drops its own events, counted apart from critical drops', () => {
    const sink = new FakeLogSink();
    const bus = new EventBus<DomainEvent>({ logger: sink.logger });
    const commentator = new EventCommentator({ bus, logger: sink.logger, queueCapacity: 2 });
    bus.start();
    for (let i = 0; i < 5; i++) {
      bus.publish(createEvent('reconciliation.started', { reason: `r${i}` }));
    }
    assert.equal(commentator.droppedCount, 3);
    assert.equal(bus.stats().droppedLossy, 3);
    assert.equal(bus.stats().droppedCritical, 0);
  });
});

describe('sanitizeForLog', () => {
  it('cuts long strings and wide arrays instead of logging whole rendered configs', () => {
    const out = sanitizeForLog(
      { haproxyCfg: 'x'.repeat(10_000), list: Array.from({ length: 100 }, (_, i) => i) },
      { maxStringLength: 10, maxEntries: 3 },
    ) as { haproxyCfg: string; list: unknown[] };
    assert.equal(out.haproxyCfg, 'xxxxxxxxxx… [10000 chars]');
    assert.deepEqual(out.list, [0, 1, 2, '… [100 items]']);
  });
});
