import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { createEvent } from '../../../../src/controller/events/create-event.js';
import {
  DOMAIN_EVENT_TYPES,
  isDomainEventType,
  type DomainEvent,
} from '../../../../src/controller/events/domain-events.js';

/** The type strings of haptic-notes §1.9 (HAPTIC's catalogue), which the port must keep. */
const HAPTIC_TYPES = [
  'config.resource.changed',
  'config.parsed',
  'config.validation.request',
  'config.validation.response',
  'config.validated',
  'config.invalid',
  'secret.resource.changed',
  'credentials.updated',
  'credentials.invalid',
  'cert.resource.changed',
  'cert.parsed',
  'resource.index.updated',
  'resource.sync.complete',
  'index.synchronized',
  'reconciliation.triggered',
  'reconciliation.started',
  'reconciliation.completed',
  'reconciliation.failed',
  'template.rendered',
  'template.render.failed',
  'validation.started',
  'validation.completed',
  'validation.failed',
  'validation_tests.started',
  'validation_tests.completed',
  'validation_tests.failed',
  'deployment.scheduled',
  'deployment.started',
  'instance.deployed',
  'instance.deployment.failed',
  'deployment.completed',
  'deployment.cancel.request',
  'drift.prevention.triggered',
  'haproxy.pods.discovered',
  'haproxy.pod.terminated',
  'config.published',
  'config.publish.failed',
  'config.applied.to.pod',
  'webhook.validation.request',
  'webhook.validation.allowed',
  'webhook.validation.denied',
  'webhook.validation.error',
  'webhook.validation.request.sg',
  'webhook.validation.response.sg',
  'leader.election.started',
  'leader.became',
  'leader.lost',
  'leader.observed',
  'http.resource.updated',
  'http.resource.accepted',
  'http.resource.rejected',
  'proposal.validation.requested',
  'proposal.validation.completed',
  'resources.applied',
  'deployment.skipped',
  'runtime.fastpath.result',
  'deploy.runtime.divergence',
  'runtime.map.divergence',
  'haproxy.pod.rejected',
  'config.deployed.publish.request',
  'status.update.completed',
  'status.update.failed',
];

function sequentialIds(): () => string {
  let n = 0;
  return () => `e${++n}`;
}

describe('domain event catalogue', () => {
  it("keeps every one of HAPTIC's type strings", () => {
    const missing = HAPTIC_TYPES.filter((t) => !isDomainEventType(t));
    assert.deepEqual(missing, []);
    assert.equal(new Set(DOMAIN_EVENT_TYPES).size, DOMAIN_EVENT_TYPES.length);
  });

  it('creates deeply frozen events that no subscriber can change', () => {
    const event = createEvent('haproxy.pods.discovered', {
      endpoints: [{ podName: 'p', podNamespace: 'ns', address: 'https://10.0.0.1:9102' }],
      isCoalescible: true,
    });
    assert.ok(Object.isFrozen(event));
    assert.ok(Object.isFrozen(event.endpoints[0]));
    assert.throws(() => {
      (event as { isCoalescible: boolean }).isCoalescible = false;
    }, TypeError);
  });

  it('propagates the correlation id along one reconciliation and links each event to its cause', () => {
    const newId = sequentialIds();
    const trigger = createEvent(
      'reconciliation.triggered',
      { reason: 'resource change', isCoalescible: true },
      { newId },
    );
    const started = createEvent(
      'reconciliation.started',
      { reason: 'resource change' },
      { cause: trigger, newId },
    );
    const done = createEvent(
      'reconciliation.completed',
      { durationMs: 3 },
      { cause: started, newId },
    );
    assert.equal(trigger.correlationId, trigger.id);
    assert.equal(trigger.causationId, undefined);
    assert.deepEqual(
      [started.correlationId, started.causationId, done.correlationId, done.causationId],
      [trigger.id, trigger.id, trigger.id, started.id],
    );
  });

  it('narrows the union on its type discriminant', () => {
    const epochOf = (event: DomainEvent): number =>
      event.type === 'leader.became' ? event.epoch : -1;
    assert.equal(epochOf(createEvent('leader.became', { identity: 'pod-a', epoch: 7 })), 7);
    assert.equal(epochOf(createEvent('leader.lost', { identity: 'pod-a', reason: 'x' })), -1);
  });
});
