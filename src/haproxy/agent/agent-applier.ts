/**
 * The agent's apply transaction, independent of HTTP. One apply at a time:
 * fence (epoch, previous plan) -> resolve contents (digests) -> plan -> stage the full tree and
 * run `haproxy -c` on it -> journal last-known-good -> rename into place (haproxy.cfg last) ->
 * runtime ops or a verified reload -> commit the state file. Any failure after the journal
 * restores it (and reloads if the running workers were touched).
 */
import { mkdir, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sleep } from '../../core/abort.js';
import { describeError } from '../../core/errors.js';
import { planChange } from '../plan/plan-change.js';
import type { FileSet } from '../plan/file-set.js';
import type { PlanDecision } from '../plan/plan-decision.js';
import type { MasterCliClient, VerifiedReload } from '../runtime/master-cli-client.js';
import type { RuntimeApiClient } from '../runtime/runtime-api-client.js';
import { executeRuntimeOps } from '../runtime/execute-runtime-ops.js';
import { ReloadFailedError } from '../runtime/runtime-errors.js';
import { checkHaproxyConfig } from '../validate/haproxy-check.js';
import type { AgentLogger } from './agent-logger.js';
import type { AgentMetrics } from './agent-metrics.js';
import {
  EMPTY_AGENT_STATE,
  loadAgentState,
  saveAgentState,
  stateMatchesTree,
  type AgentState,
} from './agent-state-store.js';
import { AGENT_DIR, type ApplyRequest } from './apply-request.js';
import { clearJournal, readJournal, restoreJournal, writeJournal } from './apply-journal.js';
import { fsyncDir } from './atomic-write-file.js';
import { linkOrCopy } from './link-or-copy.js';
import { readFileTree, sha256Hex, treeDigests, type TreeFile } from './file-tree.js';
import { ReloadPacer } from './reload-pacer.js';

/** Options of {@link AgentApplier}. */
export interface AgentApplierOptions {
  /** Absolute base directory HAProxy runs in (`-C`). */
  readonly baseDir: string;
  readonly haproxyBin: string;
  readonly runtime: RuntimeApiClient;
  readonly master: MasterCliClient;
  readonly metrics: AgentMetrics;
  readonly logger: AgentLogger;
  /** Minimum time between two reloads. */
  readonly reloadIntervalMinMs: number;
  /** Deadline for a verified reload (default 30 s). */
  readonly reloadTimeoutMs?: number;
  /** Deadline for `haproxy -c` (default 60 s). */
  readonly checkTimeoutMs?: number;
  /**
   * TEST ONLY fault injection (from HAPTIC_AGENT_FAULT): `after-rename` makes the process
   * SIGKILL itself right after the files are renamed into place, before runtime ops or reload.
   */
  readonly fault?: string | undefined;
}

/** An HTTP-ready answer: status code and JSON body. */
export interface ApplyResponse {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** What `GET /v1/state` reports. */
export interface AgentStateView {
  readonly planId: string | null;
  readonly leaderEpoch: number;
  readonly baseline: 'known' | 'unknown';
  readonly files: readonly { readonly path: string; readonly digest: string }[];
}

const CFG = 'haproxy.cfg';
/** How often a reload-requiring apply steps aside for the pacer before waiting in the queue. */
const MAX_DEFERRALS = 3;

function byCfgLast(a: string, b: string): number {
  return Number(a === CFG) - Number(b === CFG) || (a < b ? -1 : a > b ? 1 : 0);
}

function toFileSet(tree: ReadonlyMap<string, { readonly content: Buffer }>): FileSet {
  return { files: new Map([...tree].map(([p, f]) => [p, f.content])) };
}

/** Runs applies against one HAProxy and keeps the agent state. */
export class AgentApplier {
  readonly #o: AgentApplierOptions;
  readonly #pacer: ReloadPacer;
  #state: AgentState = EMPTY_AGENT_STATE;
  #baseline: 'known' | 'unknown' = 'unknown';
  #files: { path: string; digest: string }[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  /** Set when a rollback could not reload: the running workers may differ from the files. */
  #runningUnknown = false;

  constructor(opts: AgentApplierOptions) {
    this.#o = opts;
    this.#pacer = new ReloadPacer(opts.reloadIntervalMinMs);
  }

  get #agentDir(): string {
    return join(this.#o.baseDir, AGENT_DIR);
  }

  get #stageDir(): string {
    return join(this.#agentDir, 'stage');
  }

  /**
   * Loads the state file and finishes an interrupted transaction: a journal left by a crash is
   * restored (entirely old files), then HAProxy is reloaded so it runs what is on disk. A state
   * file that disagrees with the disk leaves the baseline unknown.
   */
  async init(signal?: AbortSignal): Promise<void> {
    const { baseDir, logger } = this.#o;
    await mkdir(this.#agentDir, { recursive: true });
    const loaded = await loadAgentState(baseDir);
    const state = loaded ?? EMPTY_AGENT_STATE;
    const journal = await readJournal(baseDir);
    let reloadNeeded = false;
    if (journal) {
      if (journal.planId === state.planId) {
        await clearJournal(baseDir);
      } else {
        logger.warn({ planId: journal.planId }, 'restoring the journal of an interrupted apply');
        await restoreJournal(baseDir, journal);
        this.#o.metrics.rollbacks.inc();
        reloadNeeded = true;
      }
    }
    await rm(this.#stageDir, { recursive: true, force: true });
    const files = treeDigests(await readFileTree(baseDir, signal));
    this.#state = state;
    this.#files = files;
    this.#baseline = loaded !== undefined && stateMatchesTree(state, files) ? 'known' : 'unknown';
    if (this.#baseline === 'unknown') {
      logger.warn(
        { stateFile: loaded !== undefined },
        'files on disk do not match the state file: baseline unknown',
      );
    }
    if (reloadNeeded) {
      try {
        await this.#reload(signal);
      } catch (err) {
        logger.error({ err: describeError(err) }, 'reload after journal restore failed');
      }
    }
  }

  /** The state reported by `GET /v1/state` (without the HAProxy version). */
  view(): AgentStateView {
    return {
      planId: this.#baseline === 'known' ? this.#state.planId : null,
      leaderEpoch: this.#state.leaderEpoch,
      baseline: this.#baseline,
      files: this.#files,
    };
  }

  /** Applies `req`; applies are serialised. Never throws for request-level problems. */
  async apply(req: ApplyRequest, signal?: AbortSignal): Promise<ApplyResponse> {
    const started = performance.now();
    for (let deferrals = 0; ; deferrals++) {
      const mayDefer = deferrals < MAX_DEFERRALS;
      const run = this.#queue.then(() => this.#applyLocked(req, started, mayDefer, signal));
      this.#queue = run.catch(() => undefined);
      const out = await run;
      if (!('deferMs' in out)) return out;
      // Wait for the pacer outside the queue so runtime-only applies are not held up, then
      // start over: epoch, previous plan and the plan itself are checked again.
      await sleep(out.deferMs, signal);
    }
  }

  #reject(status: number, reason: string, extra: Record<string, unknown> = {}): ApplyResponse {
    this.#o.metrics.rejections.inc({ reason });
    return { status, body: { reason, ...extra } };
  }

  async #applyLocked(
    req: ApplyRequest,
    started: number,
    mayDefer: boolean,
    signal?: AbortSignal,
  ): Promise<ApplyResponse | { deferMs: number }> {
    const { baseDir } = this.#o;
    if (req.leaderEpoch < this.#state.leaderEpoch) {
      return this.#reject(409, 'stale_epoch', { leaderEpoch: this.#state.leaderEpoch });
    }
    if (req.expectedPrevPlanId !== undefined) {
      if (this.#baseline === 'unknown') return this.#reject(409, 'unknown_baseline');
      if (req.expectedPrevPlanId !== this.#state.planId) {
        return this.#reject(409, 'prev_mismatch', { planId: this.#state.planId });
      }
    }

    const current = await readFileTree(baseDir, signal);
    const byDigest = new Map<string, Buffer>();
    for (const f of current.values()) byDigest.set(f.digest, f.content);
    const desired = new Map<string, TreeFile>(current);
    const missing: string[] = [];
    for (const f of req.files) {
      if (f.content) {
        if (sha256Hex(f.content) !== f.digest) {
          return this.#reject(400, 'digest_mismatch', { path: f.path });
        }
        desired.set(f.path, { digest: f.digest, content: f.content });
      } else {
        const content = byDigest.get(f.digest);
        if (content) desired.set(f.path, { digest: f.digest, content });
        else missing.push(f.path);
      }
    }
    if (missing.length > 0) return this.#reject(409, 'missing_content', { missing });
    for (const d of req.deletes) desired.delete(d);
    if (!desired.has(CFG))
      return this.#reject(400, 'invalid_field', { message: 'the result has no haproxy.cfg' });

    const changed = [...desired.keys()]
      .filter((p) => current.get(p)?.digest !== desired.get(p)?.digest)
      .sort(byCfgLast);
    const deleted = req.deletes.filter((p) => current.has(p));
    const forceReload =
      req.mode === 'reload' || this.#baseline === 'unknown' || this.#runningUnknown;
    if (changed.length === 0 && deleted.length === 0 && !forceReload) {
      await this.#commit(req, this.#files);
      return this.#ok(started, 'noop', req.planId, ['files unchanged']);
    }

    try {
      // Stage the whole desired tree so `haproxy -c` sees exactly what will run.
      await rm(this.#stageDir, { recursive: true, force: true });
      for (const [path, file] of desired) {
        const target = join(this.#stageDir, path);
        await mkdir(dirname(target), { recursive: true });
        if (current.get(path)?.digest === file.digest)
          await linkOrCopy(join(baseDir, path), target);
        else await writeFile(target, file.content);
      }
      // `haproxy -c` runs in its own process: plan while it checks.
      const checking = checkHaproxyConfig({
        haproxyBin: this.#o.haproxyBin,
        baseDir: this.#stageDir,
        configPath: CFG,
        timeoutMs: this.#o.checkTimeoutMs ?? 60_000,
        ...(signal ? { signal } : {}),
      });
      checking.catch(() => undefined);
      let decision: PlanDecision;
      try {
        decision = planChange(toFileSet(current), toFileSet(desired), { forceReload, baseDir });
      } catch (err) {
        // A planner bug must not block deployment: a reload of checked files is always correct.
        this.#o.logger.error({ err: describeError(err) }, 'planner failed; reloading');
        decision = { mode: 'reload', reasons: [`planner failed (${describeError(err)})`] };
      }
      let mode: 'noop' | 'runtime' | 'reload' = decision.mode;
      const reasons = [...decision.reasons];
      if (forceReload && mode !== 'reload') {
        mode = 'reload';
        reasons.push(
          req.mode === 'reload'
            ? 'reload requested'
            : this.#runningUnknown
              ? 'running state unknown after a failed rollback'
              : 'baseline unknown',
        );
      }
      const deferMs = mode === 'reload' && mayDefer ? this.#pacer.delayMs() : 0;
      if (deferMs > 0) {
        await checking.catch(() => undefined);
        return { deferMs };
      }
      const check = await checking;
      if (!check.valid) return this.#reject(422, 'rejected', { errors: check.errors });

      const journal = await writeJournal(
        baseDir,
        req.planId,
        [...changed, ...deleted],
        new Set(current.keys()),
      );
      try {
        for (const path of changed) {
          await mkdir(dirname(join(baseDir, path)), { recursive: true });
          await rename(join(this.#stageDir, path), join(baseDir, path));
        }
        for (const path of deleted) await unlink(join(baseDir, path));
        await fsyncDir(baseDir);
      } catch (err) {
        await this.#rollback(journal, false, signal);
        return this.#reject(500, 'apply_failed', { message: describeError(err) });
      }
      if (this.#o.fault === 'after-rename') process.kill(process.pid, 'SIGKILL');

      let workersTouched = false;
      let reload: VerifiedReload | undefined;
      try {
        if (decision.mode === 'runtime' && mode === 'runtime') {
          workersTouched = true;
          try {
            await executeRuntimeOps(this.#o.runtime, decision.ops, signal ? { signal } : {});
          } catch (err) {
            // The new files passed `haproxy -c`: a reload of them reaches the desired state.
            reasons.push(`runtime ops failed (${describeError(err)}); reloading instead`);
            this.#o.logger.warn(
              { err: describeError(err) },
              'runtime ops failed; falling back to a reload',
            );
            mode = 'reload';
          }
        }
        if (mode === 'reload') reload = await this.#reload(signal);
      } catch (err) {
        await this.#rollback(
          journal,
          workersTouched || !(err instanceof ReloadFailedError),
          signal,
        );
        return this.#reject(500, 'apply_failed', { message: describeError(err) });
      }

      const digests = treeDigests(desired);
      if (reload) this.#runningUnknown = false;
      await this.#commit(req, digests);
      return this.#ok(started, mode, req.planId, reasons, reload);
    } finally {
      await rm(this.#stageDir, { recursive: true, force: true });
    }
  }

  async #rollback(
    journal: Awaited<ReturnType<typeof writeJournal>>,
    reload: boolean,
    signal?: AbortSignal,
  ): Promise<void> {
    this.#o.metrics.rollbacks.inc();
    await restoreJournal(this.#o.baseDir, journal);
    if (!reload) return;
    try {
      await this.#reload(signal);
    } catch (err) {
      // The workers may hold runtime changes the files no longer describe: the next apply reloads.
      this.#runningUnknown = true;
      this.#o.logger.error({ err: describeError(err) }, 'reload of the restored files failed');
    }
  }

  async #reload(signal?: AbortSignal): Promise<VerifiedReload> {
    await this.#pacer.waitTurn(signal);
    try {
      const r = await this.#o.master.reloadVerified({
        timeoutMs: this.#o.reloadTimeoutMs ?? 30_000,
        ...(signal ? { signal } : {}),
      });
      this.#o.metrics.reloads.inc({ result: 'success' });
      return r;
    } catch (err) {
      this.#o.metrics.reloads.inc({ result: 'failure' });
      throw err;
    } finally {
      this.#pacer.markReloaded();
    }
  }

  async #commit(req: ApplyRequest, files: { path: string; digest: string }[]): Promise<void> {
    const state: AgentState = {
      planId: req.planId,
      leaderEpoch: Math.max(this.#state.leaderEpoch, req.leaderEpoch),
      files,
    };
    await saveAgentState(this.#o.baseDir, state);
    await clearJournal(this.#o.baseDir);
    this.#state = state;
    this.#files = files;
    this.#baseline = 'known';
  }

  #ok(
    started: number,
    mode: 'noop' | 'runtime' | 'reload',
    planId: string,
    reasons: readonly string[],
    reload?: VerifiedReload,
  ): ApplyResponse {
    this.#o.metrics.applies.inc({ mode });
    this.#o.metrics.applyDuration.observe({ mode }, (performance.now() - started) / 1000);
    return {
      status: 200,
      body: {
        mode,
        planId,
        reasons,
        ...(reload ? { reload: { verified: reload.verified, workerPid: reload.workerPid } } : {}),
      },
    };
  }
}
