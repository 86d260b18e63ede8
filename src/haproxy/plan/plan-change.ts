import type { FileSet } from './file-set.js';
import type { PlanDecision, PlanOptions } from './plan-decision.js';

/**
 * Decides how to move HAProxy from `current` to `desired` (see PlanDecision).
 * Placeholder while the planner is built: always asks for a reload.
 */
export function planChange(
  _current: FileSet,
  _desired: FileSet,
  _options: PlanOptions = {},
): PlanDecision {
  return { mode: 'reload', reasons: ['planner not implemented yet'] };
}
