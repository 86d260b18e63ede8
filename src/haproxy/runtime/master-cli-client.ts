/**
 * Client of HAProxy's master CLI (`haproxy -W -S <socket>`): `show proc` and verified reloads.
 * On 2.6 `reload` answers nothing, so success is read from `show proc`: the master's reload
 * counter moves, `[failed: N]` stays 0 and a worker with a new pid appears.
 */
import { sleep } from '../../core/abort.js';
import { DeadlineExceededError } from '../../core/errors.js';
import { ReloadFailedError, RuntimeCommandError } from './runtime-errors.js';
import { isTransientMasterError, sendSocketCommand } from './send-socket-command.js';
import { currentWorker, parseShowProc, type ProcTable } from './show-proc.js';
import type { SocketAddress } from './socket-address.js';

/** Options of {@link MasterCliClient}. */
export interface MasterCliClientOptions {
  /** Per-command deadline (default 10 s). */
  readonly timeoutMs?: number;
  /** Poll interval while waiting for a reload to show up in `show proc` (default 20 ms). */
  readonly pollMs?: number;
}

/** Outcome of a verified reload. */
export interface VerifiedReload {
  readonly verified: true;
  readonly workerPid: number;
  /** The master's reload counter after the reload. */
  readonly reloads: number;
  readonly durationMs: number;
}

/** Talks to the master process of a master-worker HAProxy. */
export class MasterCliClient {
  readonly #address: SocketAddress;
  readonly #timeoutMs: number;
  readonly #pollMs: number;

  constructor(address: SocketAddress, opts: MasterCliClientOptions = {}) {
    this.#address = address;
    this.#timeoutMs = opts.timeoutMs ?? 10_000;
    this.#pollMs = opts.pollMs ?? 20;
  }

  /** The socket this client talks to. */
  get address(): SocketAddress {
    return this.#address;
  }

  /** Runs `show proc` and parses it. */
  async showProc(signal?: AbortSignal): Promise<ProcTable> {
    const answer = await sendSocketCommand(this.#address, 'show proc\n', {
      timeoutMs: this.#timeoutMs,
      ...(signal ? { signal } : {}),
    });
    const table = parseShowProc(answer);
    if (!table) throw new RuntimeCommandError('show proc', answer, 'a process table');
    return table;
  }

  async #showProcPatiently(signal: AbortSignal | undefined, deadline: number): Promise<ProcTable> {
    for (;;) {
      try {
        return await this.showProc(signal);
      } catch (err) {
        // A previous reload may still be re-executing the master.
        if (!isTransientMasterError(err) || performance.now() > deadline) throw err;
      }
      await sleep(this.#pollMs, signal);
    }
  }

  /** Sends `reload` without waiting for its effect (2.6 answers nothing). */
  async reload(signal?: AbortSignal): Promise<void> {
    await sendSocketCommand(this.#address, 'reload\n', {
      timeoutMs: this.#timeoutMs,
      ...(signal ? { signal } : {}),
    });
  }

  /**
   * Reloads and waits until `show proc` proves it: reload counter +1, no failed reload, a new
   * worker pid. Throws ReloadFailedError when HAProxy counts the reload as failed, and
   * DeadlineExceededError when nothing conclusive shows up within `timeoutMs` (default 30 s).
   */
  async reloadVerified(
    opts: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<VerifiedReload> {
    const { signal } = opts;
    const timeoutMs = opts.timeoutMs ?? 30_000;
    const started = performance.now();
    const before = await this.#showProcPatiently(signal, started + timeoutMs);
    const oldPids = new Set(before.workers.map((w) => w.pid));
    try {
      await this.reload(signal);
    } catch (err) {
      // The master may reset the connection while it re-executes: the reload was received.
      if (!isTransientMasterError(err)) throw err;
    }
    for (;;) {
      if (performance.now() - started > timeoutMs) {
        throw new DeadlineExceededError('verified reload', timeoutMs);
      }
      let table: ProcTable | undefined;
      try {
        table = await this.showProc(signal);
      } catch (err) {
        // The master re-executes itself on reload and refuses or resets connections for a moment.
        if (!isTransientMasterError(err)) throw err;
      }
      if (table && table.master.reloads > before.master.reloads) {
        if (table.master.failed > 0) {
          throw new ReloadFailedError(
            `HAProxy reported a failed reload (failed: ${table.master.failed}); the previous worker keeps serving`,
          );
        }
        const worker = currentWorker(table);
        if (worker && !oldPids.has(worker.pid)) {
          return {
            verified: true,
            workerPid: worker.pid,
            reloads: table.master.reloads,
            durationMs: performance.now() - started,
          };
        }
      }
      await sleep(this.#pollMs, signal);
    }
  }
}
