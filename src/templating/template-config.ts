/**
 * The part of HAProxyTemplateConfig.spec the templating library uses. A TypeBox schema for the
 * whole CRD lives with the CRDs; this model only needs what rendering and the embedded tests
 * read, already checked by parseTemplateConfig.
 */

/** One watched resource type; its key becomes `resources.<name>` in templates. */
export interface WatchedResourceConfig {
  readonly apiVersion: string;
  /** Plural resource name, e.g. `ingresses`. */
  readonly resources: string;
  /** JSONPath-like keys (`metadata.namespace`) that `fetch(...keys)` matches, in order. */
  readonly indexBy: readonly string[];
}

/** A template source. */
export interface TemplateSource {
  readonly template: string;
}

/** Every assertion type of the embedded validation tests. */
export const ASSERTION_TYPES = [
  'haproxy_valid',
  'contains',
  'not_contains',
  'equals',
  'match_count',
  'match_order',
  'jsonpath',
  'deterministic',
] as const;

/** An assertion type. */
export type AssertionType = (typeof ASSERTION_TYPES)[number];

/** The outcome phases a status patch can carry a variant for. */
export const STATUS_PHASES = [
  'rendered',
  'deployed',
  'renderFailed',
  'validateFailed',
  'deployFailed',
] as const;

/** A status patch phase. */
export type StatusPhase = (typeof STATUS_PHASES)[number];

/** What an assertion looks at, parsed from its `target` string. */
export type AssertionTarget =
  | { readonly kind: 'haproxy.cfg' }
  | { readonly kind: 'map' | 'file' | 'cert' | 'crt-list'; readonly name: string }
  | {
      readonly kind: 'status';
      readonly namespace: string;
      readonly name: string;
      readonly phase: StatusPhase;
    }
  | { readonly kind: 'rendering_error' };

/** One assertion of a validation test. */
export interface AssertionConfig {
  readonly type: AssertionType;
  /** The target as written (`haproxy.cfg` when omitted). */
  readonly targetText: string;
  readonly target: AssertionTarget;
  readonly pattern?: string;
  readonly patterns?: readonly string[];
  readonly expected?: string;
  readonly jsonpath?: string;
  readonly description?: string;
}

/** One embedded validation test. */
export interface ValidationTestConfig {
  readonly description: string;
  /** Objects per watched resource name (plus `haproxy-pods`). */
  readonly fixtures: Readonly<Record<string, readonly Record<string, unknown>[]>>;
  readonly assertions: readonly AssertionConfig[];
  /** Merged over templatingSettings.extraContext for this test. */
  readonly extraContext: Readonly<Record<string, unknown>>;
}

/**
 * Where rendered files live, relative to the base directory HAProxy runs in (`-C <base dir>`):
 * the same layout the agent and the planner use (`maps/`, `certs/`, `crt-lists/`, `files/`,
 * `haproxy.cfg` at the root). Relative, so one render works in production, in a test's temp
 * directory and in the validation scratch tree alike.
 */
export interface FileLayout {
  /** Always `haproxy.cfg`: the agent looks for the main config at the base directory's root. */
  readonly configFile: string;
  readonly mapsDir: string;
  readonly sslCertsDir: string;
  readonly generalStorageDir: string;
  readonly crtListDir: string;
}

/** The parsed HAProxyTemplateConfig, as far as templating is concerned. */
export interface TemplateConfig {
  readonly name: string;
  readonly watchedResources: Readonly<Record<string, WatchedResourceConfig>>;
  readonly templateSnippets: Readonly<Record<string, TemplateSource>>;
  readonly haproxyConfig: TemplateSource;
  readonly maps: Readonly<Record<string, TemplateSource>>;
  readonly files: Readonly<Record<string, TemplateSource>>;
  readonly sslCertificates: Readonly<Record<string, TemplateSource>>;
  readonly extraContext: Readonly<Record<string, unknown>>;
  /** Runnable tests by name; `_global` is folded into each and not listed. */
  readonly validationTests: Readonly<Record<string, ValidationTestConfig>>;
  readonly layout: FileLayout;
}
