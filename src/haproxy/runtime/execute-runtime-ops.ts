/**
 * Runs planned RuntimeOps against a HAProxy worker through the runtime API, checking every
 * answer. Ops run in the order given (the planner orders them: servers before map keys on add,
 * keys before servers on delete). The first failing op throws; earlier ops stay applied, so the
 * caller must bring the process back in line with the files (the agent reloads).
 */
import { sleep } from '../../core/abort.js';
import type { RuntimeOp } from '../plan/runtime-op.js';
import { payloadLines } from './runtime-command.js';
import type { RuntimeApiClient } from './runtime-api-client.js';
import { RuntimeCommandError } from './runtime-errors.js';

/** Options of {@link executeRuntimeOps}. */
export interface ExecuteRuntimeOpsOptions {
  readonly signal?: AbortSignal;
  /** How long `server.delete` keeps retrying while connections remain (default 5 s). */
  readonly drainTimeoutMs?: number;
  /** Pause between `del server` attempts (default 200 ms). */
  readonly drainRetryMs?: number;
}

/** What ran: one entry per op. */
export interface ExecutedOp {
  readonly op: RuntimeOp['op'];
  readonly commands: number;
}

/** Executes `ops` in order and resolves to a per-op summary; throws on the first failure. */
export async function executeRuntimeOps(
  client: RuntimeApiClient,
  ops: readonly RuntimeOp[],
  opts: ExecuteRuntimeOpsOptions = {},
): Promise<ExecutedOp[]> {
  const done: ExecutedOp[] = [];
  for (const op of ops) {
    const runner = new OpRunner(client, opts);
    await runner.run(op);
    done.push({ op: op.op, commands: runner.commands });
  }
  return done;
}

const EMPTY = /^$/;
const NEW_VERSION = /New version created: (\d+)/;

class OpRunner {
  commands = 0;
  readonly #client: RuntimeApiClient;
  readonly #signal: AbortSignal | undefined;
  readonly #drainTimeoutMs: number;
  readonly #drainRetryMs: number;

  constructor(client: RuntimeApiClient, opts: ExecuteRuntimeOpsOptions) {
    this.#client = client;
    this.#signal = opts.signal;
    this.#drainTimeoutMs = opts.drainTimeoutMs ?? 5_000;
    this.#drainRetryMs = opts.drainRetryMs ?? 200;
  }

  async #cmd(words: readonly string[]): Promise<string> {
    this.commands++;
    return this.#client.command(words, this.#signal);
  }

  async #expect(words: readonly string[], ok: RegExp, expected: string): Promise<string> {
    const answer = await this.#cmd(words);
    if (!ok.test(answer)) throw new RuntimeCommandError(words.join(' '), answer, expected);
    return answer;
  }

  async #payload(
    words: readonly string[],
    lines: readonly string[],
    ok: RegExp,
    expected: string,
  ): Promise<void> {
    this.commands++;
    const answers = await this.#client.payloadCommand(words, lines, this.#signal);
    for (const answer of answers) {
      if (!ok.test(answer))
        throw new RuntimeCommandError(`${words.join(' ')} <<`, answer, expected);
    }
  }

  async run(op: RuntimeOp): Promise<void> {
    switch (op.op) {
      case 'server.add':
        return this.#serverAdd(op.backend, op.server, op);
      case 'server.delete':
        return this.#serverDelete(`${op.backend}/${op.server}`);
      case 'server.set-addr': {
        await this.#expect(
          [
            'set',
            'server',
            `${op.backend}/${op.server}`,
            'addr',
            op.address,
            'port',
            String(op.port),
          ],
          /changed|no need to change/i,
          'an address/port change confirmation',
        );
        return;
      }
      case 'server.set-weight':
        await this.#expect(
          ['set', 'weight', `${op.backend}/${op.server}`, String(op.weight)],
          EMPTY,
          'no answer',
        );
        return;
      case 'server.set-maxconn':
        await this.#expect(
          ['set', 'maxconn', 'server', `${op.backend}/${op.server}`, String(op.maxconn)],
          EMPTY,
          'no answer',
        );
        return;
      case 'server.set-state':
        await this.#expect(
          ['set', 'server', `${op.backend}/${op.server}`, 'state', op.state],
          EMPTY,
          'no answer',
        );
        return;
      case 'map.add':
        await this.#expect(['add', 'map', op.map, op.key, op.value], EMPTY, 'no answer');
        return;
      case 'map.set':
        await this.#expect(['set', 'map', op.map, op.key, op.value], EMPTY, 'no answer');
        return;
      case 'map.delete':
        // Deleting an absent key is already the desired state.
        await this.#expect(['del', 'map', op.map, op.key], /^$|not found/i, 'no answer');
        return;
      case 'map.replace':
        return this.#replace(
          'map',
          op.map,
          op.entries.map(([k, v]) => entryLine(k, v)),
        );
      case 'acl.add':
        await this.#expect(['add', 'acl', op.acl, op.pattern], EMPTY, 'no answer');
        return;
      case 'acl.delete':
        await this.#expect(['del', 'acl', op.acl, op.pattern], /^$|not found/i, 'no answer');
        return;
      case 'acl.replace':
        return this.#replace('acl', op.acl, [...op.patterns]);
      case 'cert.set':
        return this.#storeSet('cert', op.path, op.pem);
      case 'cafile.set':
        return this.#storeSet('ca-file', op.path, op.pem);
      case 'cert.delete':
        await this.#expect(['del', 'ssl', 'cert', op.path], /deleted/i, '"deleted"');
        return;
      case 'crtlist.add':
        await this.#payload(
          ['add', 'ssl', 'crt-list', op.crtList],
          [op.line],
          /Success!/,
          '"Success!"',
        );
        return;
      case 'crtlist.delete':
        await this.#expect(
          ['del', 'ssl', 'crt-list', op.crtList, op.certPath],
          /deleted|Success/i,
          '"deleted"',
        );
        return;
      case 'frontend.set-maxconn':
        await this.#expect(
          ['set', 'maxconn', 'frontend', op.frontend, String(op.maxconn)],
          EMPTY,
          'no answer',
        );
        return;
      case 'global.set-maxconn':
        await this.#expect(['set', 'maxconn', 'global', String(op.maxconn)], EMPTY, 'no answer');
        return;
      case 'global.set-rate-limit':
        await this.#expect(
          ['set', 'rate-limit', op.kind, 'global', String(op.value)],
          EMPTY,
          'no answer',
        );
        return;
    }
  }

  async #serverAdd(
    backend: string,
    server: string,
    op: {
      id: number;
      address: string;
      port: number;
      weight: number;
      enabled: boolean;
      check: boolean;
      agentCheck: boolean;
      params: readonly string[];
    },
  ): Promise<void> {
    const name = `${backend}/${server}`;
    const addr = op.address.includes(':')
      ? `[${op.address}]:${op.port}`
      : `${op.address}:${op.port}`;
    await this.#expect(
      ['add', 'server', name, addr, 'id', String(op.id), 'weight', String(op.weight), ...op.params],
      /New server registered/,
      '"New server registered."',
    );
    if (op.enabled) await this.#expect(['enable', 'server', name], EMPTY, 'no answer');
    if (op.check) await this.#expect(['enable', 'health', name], EMPTY, 'no answer');
    if (op.agentCheck) await this.#expect(['enable', 'agent', name], EMPTY, 'no answer');
  }

  async #serverDelete(name: string): Promise<void> {
    // Drain first so new requests go elsewhere, then maintenance, then delete once the last
    // connection is gone (HAProxy refuses `del server` while connections remain).
    await this.#expect(['set', 'server', name, 'state', 'drain'], EMPTY, 'no answer');
    await this.#expect(['set', 'server', name, 'state', 'maint'], EMPTY, 'no answer');
    const deadline = performance.now() + this.#drainTimeoutMs;
    for (;;) {
      const answer = await this.#cmd(['del', 'server', name]);
      if (/Server deleted/.test(answer)) return;
      if (
        !/still has connections|connections attached/i.test(answer) ||
        performance.now() > deadline
      ) {
        throw new RuntimeCommandError(`del server ${name}`, answer, '"Server deleted."');
      }
      await sleep(this.#drainRetryMs, this.#signal);
    }
  }

  async #replace(kind: 'map' | 'acl', file: string, lines: string[]): Promise<void> {
    const prepared = await this.#expect(
      ['prepare', kind, file],
      NEW_VERSION,
      '"New version created: N"',
    );
    const version = NEW_VERSION.exec(prepared)?.[1] ?? '';
    if (lines.length > 0) {
      await this.#payload(['add', kind, `@${version}`, file], lines, EMPTY, 'no answer');
      // 2.6 drops an oversized payload without a word: count what arrived before committing.
      const shown = await this.#cmd(['show', kind, `@${version}`, file]);
      const count = shown === '' ? 0 : shown.split('\n').length;
      if (count !== lines.length) {
        throw new RuntimeCommandError(
          `show ${kind} @${version} ${file}`,
          `${count} entries`,
          `${lines.length} entries`,
        );
      }
    }
    await this.#expect(['commit', kind, `@${version}`, file], EMPTY, 'no answer');
  }

  async #storeSet(kind: 'cert' | 'ca-file', path: string, pem: string): Promise<void> {
    const lines = payloadLines(pem);
    this.commands++;
    let answer = await this.#client.singlePayloadCommand(
      ['set', 'ssl', kind, path],
      lines,
      this.#signal,
    );
    if (!/Transaction (created|updated)/i.test(answer)) {
      // HAProxy does not know this object yet: create an empty one, then fill it.
      await this.#expect(
        ['new', 'ssl', kind, path],
        /New (empty )?(certificate|CA file)/i,
        '"New … store"',
      );
      this.commands++;
      answer = await this.#client.singlePayloadCommand(
        ['set', 'ssl', kind, path],
        lines,
        this.#signal,
      );
    }
    if (!/Transaction (created|updated)/i.test(answer)) {
      throw new RuntimeCommandError(`set ssl ${kind} ${path} <<`, answer, '"Transaction created"');
    }
    try {
      await this.#expect(['commit', 'ssl', kind, path], /Success!/, '"Success!"');
    } catch (err) {
      await this.#cmd(['abort', 'ssl', kind, path]).catch(() => undefined);
      throw err;
    }
  }
}

function entryLine(key: string, value: string): string {
  if (/\s/.test(key)) {
    throw new RuntimeCommandError('add map <<', key, 'a key without whitespace in a payload line');
  }
  return `${key} ${value}`;
}
