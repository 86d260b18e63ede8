import type { RuntimeOp } from './runtime-op.js';

/**
 * What to do to move HAProxy from the current file set to the desired one. In every mode the
 * desired files are still written to disk: `noop` means HAProxy needs to be told nothing,
 * `runtime` means the ops bring the running process to exactly the state the desired files
 * give after a reload, `reload` means only a reload can.
 */
export type PlanDecision =
  | { readonly mode: 'noop'; readonly reasons: readonly string[] }
  | {
      readonly mode: 'runtime';
      readonly ops: readonly RuntimeOp[];
      readonly reasons: readonly string[];
    }
  | { readonly mode: 'reload'; readonly reasons: readonly string[] };

/** Tuning of `planChange`. */
export interface PlanOptions {
  /** The caller asks for a reload whatever changed (`mode: 'reload'` on the agent API). */
  readonly forceReload?: boolean;
  /**
   * A map or ACL file whose diff needs more than this many add/set/del commands is replaced
   * atomically (`map.replace`) instead. Default 256.
   */
  readonly incrementalMapLimit?: number;
  /**
   * Absolute base directory HAProxy runs in (`-C`). When given, absolute file names in
   * haproxy.cfg under it are matched to FileSet paths too.
   */
  readonly baseDir?: string;
  /** At most this many reasons are listed; the rest are summarised in one line. Default 50. */
  readonly maxReasons?: number;
}
