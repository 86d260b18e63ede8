/** Errors of the templating library; each names the template (and line) or field at fault. */
import { TerminalHapticError } from '../core/errors.js';
import type { StatusPatch } from './status-patch.js';

/**
 * The HAProxyTemplateConfig (or one of its templates) is malformed: wrong structure, a template
 * that does not compile, an include of an unknown snippet, an unknown assertion type or target.
 */
export class TemplateConfigError extends TerminalHapticError {
  readonly code = 'HAPTIC_ERR_TEMPLATE_CONFIG';
}

/** Where in a template something went wrong. */
export interface TemplateLocation {
  /** Template name: `haproxy.cfg`, `map:<name>`, `file:<name>`, `cert:<name>` or a snippet name. */
  readonly template: string;
  /** 1-based line, or null when unknown. */
  readonly line: number | null;
  /** 1-based column, or null when unknown. */
  readonly column: number | null;
}

/** A template failed while rendering (undefined variable, bad filter argument, fail(), ...). */
export class TemplateRenderError extends TerminalHapticError {
  readonly code = 'HAPTIC_ERR_TEMPLATE_RENDER';
  /** The error message without location prefix (for `fail()`, exactly its message). */
  readonly detail: string;
  /** Status patches registered before the failure, for the `renderFailed` variants. */
  statusPatches: readonly StatusPatch[] = [];
  constructor(
    readonly location: TemplateLocation,
    detail: string,
    options?: { cause?: unknown },
  ) {
    const where =
      location.line === null
        ? location.template
        : `${location.template}:${location.line}${location.column === null ? '' : `:${location.column}`}`;
    super(`template ${where}: ${detail}`, options);
    this.detail = detail;
  }
}

/** Raised by the `fail(message)` template function: the template itself rejected its input. */
export class TemplateFailError extends TerminalHapticError {
  readonly code = 'HAPTIC_ERR_TEMPLATE_FAIL';
}

/**
 * A tenant-supplied value (host, path, header, argument) holds characters that could end the
 * HAProxy argument or line it is placed in, so it was rejected instead of rendered.
 */
export class UnsafeTenantValueError extends TerminalHapticError {
  readonly code = 'HAPTIC_ERR_UNSAFE_TENANT_VALUE';
}

/** A fixtures file (Kubernetes objects for `haptic render`) is malformed or cannot be routed. */
export class FixturesError extends TerminalHapticError {
  readonly code = 'HAPTIC_ERR_FIXTURES_INVALID';
}
