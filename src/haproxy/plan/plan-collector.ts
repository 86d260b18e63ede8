import type { RuntimeOp } from './runtime-op.js';

/**
 * The order in which op groups run. Additions come before the things that point at them
 * (certificates before crt-list entries, servers before map keys that route to them), and
 * removals run after the keys that pointed at them are gone (reference §11: keys last on add,
 * keys first on delete).
 */
export const OP_PHASES = [
  'tls-objects',
  'crtlist-update',
  'server-freeing-delete',
  'server-add',
  'server-update',
  'limits',
  'map-update',
  'map-delete',
  'server-delete',
  'crtlist-delete',
  'tls-cleanup',
] as const;

/** One op group, see OP_PHASES. */
export type OpPhase = (typeof OP_PHASES)[number];

/** Accumulates what the planner found while it walks the two file sets. */
export class PlanCollector {
  /** Why a reload is needed (any entry forces `reload`). */
  readonly reload: string[] = [];
  /** What the runtime ops do. */
  readonly runtime: string[] = [];
  /** Changes HAProxy does not need to hear about (files written only). */
  readonly info: string[] = [];
  private readonly phases = new Map<OpPhase, RuntimeOp[]>();

  /** Records ops in a phase, with the reason describing them. */
  addOps(phase: OpPhase, reason: string, ...ops: RuntimeOp[]): void {
    let list = this.phases.get(phase);
    if (list === undefined) {
      list = [];
      this.phases.set(phase, list);
    }
    list.push(...ops);
    this.runtime.push(reason);
  }

  /** All ops in execution order. */
  ops(): RuntimeOp[] {
    return OP_PHASES.flatMap((p) => this.phases.get(p) ?? []);
  }
}
