/** Errors of the component layer: registry validation and component failures. */
import { HapticError, TerminalHapticError } from '../core/errors.js';

/** Thrown by the lifecycle registry when component dependencies form a cycle. */
export class DependencyCycleError extends TerminalHapticError {
  readonly code = 'HAPTIC_ERR_COMPONENT_DEPENDENCY_CYCLE';
  constructor(readonly cycle: readonly string[]) {
    super(`component dependencies form a cycle: ${cycle.join(' -> ')}`);
  }
}

/**
 * Thrown by the lifecycle registry when a component depends on a name that is not registered,
 * or an all-replica component depends on a leader-only one (which may never run).
 */
export class InvalidDependencyError extends TerminalHapticError {
  readonly code = 'HAPTIC_ERR_COMPONENT_INVALID_DEPENDENCY';
  constructor(
    readonly component: string,
    readonly dependency: string,
    reason: string,
  ) {
    super(`component ${component} depends on ${dependency}: ${reason}`);
  }
}

/** Reported when a critical component fails; ends the controller iteration. */
export class ComponentFailedError extends HapticError {
  readonly code = 'HAPTIC_ERR_COMPONENT_FAILED';
  constructor(
    readonly component: string,
    options: { cause: unknown },
  ) {
    super(`component ${component} failed`, options);
  }
}
