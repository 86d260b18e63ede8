import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { AbortedError, InvalidArgumentError } from '../../../src/core/errors.js';
import { EventBus } from '../../../src/bus/event-bus.js';

type Ev =
  | { readonly type: 'check.request'; readonly requestId: string }
  | {
      readonly type: 'check.response';
      readonly requestId: string;
      readonly responder: string;
      readonly isValid: boolean;
    };
type Response = Extract<Ev, { type: 'check.response' }>;

function busWithResponders(names: readonly string[]): EventBus<Ev> {
  const bus = new EventBus<Ev>();
  for (const responder of names) {
    bus.subscribe({
      name: responder,
      types: ['check.request'],
      handler: (req) => {
        bus.publish({ type: 'check.response', requestId: req.requestId, responder, isValid: true });
      },
    });
  }
  // A silent responder: it receives the request and never answers.
  bus.subscribe({ name: 'silent', types: ['check.request'], handler: () => undefined });
  bus.start();
  return bus;
}

describe('EventBus.request (scatter-gather)', () => {
  it('returns every answer as soon as all expected responders answered', async () => {
    const bus = busWithResponders(['basic', 'template']);
    const result = await bus.request<Response>(
      { type: 'check.request', requestId: 'r1' },
      { expectedResponders: ['basic', 'template'], timeoutMs: 60_000 },
    );
    assert.equal(result.isTimedOut, false);
    assert.deepEqual(result.missing, []);
    assert.deepEqual(result.responses.map((r) => r.responder).sort(), ['basic', 'template']);
  });

  it('request() with one silent responder returns at the timeout and names it', async () => {
    const bus = busWithResponders(['basic', 'template']);
    const result = await bus.request<Response>(
      { type: 'check.request', requestId: 'r2' },
      { expectedResponders: ['basic', 'silent', 'template'], timeoutMs: 30 },
    );
    assert.equal(result.isTimedOut, true);
    assert.deepEqual(result.missing, ['silent']);
    assert.equal(result.responses.length, 2);
  });

  it('completes early once minResponses distinct responders answered', async () => {
    const bus = busWithResponders(['basic']);
    const result = await bus.request<Response>(
      { type: 'check.request', requestId: 'r3' },
      { expectedResponders: ['basic', 'silent'], minResponses: 1, timeoutMs: 60_000 },
    );
    assert.equal(result.isTimedOut, false);
    assert.deepEqual(result.missing, ['silent']);
  });

  it('ignores answers to other requests and duplicate answers from one responder', async () => {
    const bus = new EventBus<Ev>();
    bus.subscribe({
      name: 'chatty',
      types: ['check.request'],
      handler: (req) => {
        bus.publish({ type: 'check.response', requestId: 'other', responder: 'x', isValid: true });
        bus.publish({
          type: 'check.response',
          requestId: req.requestId,
          responder: 'chatty',
          isValid: true,
        });
        bus.publish({
          type: 'check.response',
          requestId: req.requestId,
          responder: 'chatty',
          isValid: false,
        });
      },
    });
    bus.start();
    const result = await bus.request<Response>(
      { type: 'check.request', requestId: 'r4' },
      { expectedResponders: ['chatty'], timeoutMs: 60_000 },
    );
    assert.deepEqual(
      result.responses.map((r) => [r.responder, r.isValid]),
      [['chatty', true]],
    );
  });

  it('rejects with AbortedError when its signal aborts', async () => {
    const bus = busWithResponders([]);
    const controller = new AbortController();
    const pending = bus.request<Response>(
      { type: 'check.request', requestId: 'r5' },
      { expectedResponders: ['silent'], timeoutMs: 60_000, signal: controller.signal },
    );
    controller.abort();
    await assert.rejects(pending, AbortedError);
  });

  it('rejects impossible options with InvalidArgumentError', async () => {
    const bus = busWithResponders([]);
    await assert.rejects(
      bus.request(
        { type: 'check.request', requestId: 'r6' },
        { expectedResponders: [], timeoutMs: 0 },
      ),
      InvalidArgumentError,
    );
  });
});
