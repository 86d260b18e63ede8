/**
 * HAProxyTemplateConfig: the controller's input (../shared/reference/haptic-notes.md §2.1).
 * Templates, watched resources, validation tests and runtime settings in one object; its
 * status is written by the config validator only.
 */
import Type, { type Static } from 'typebox';
import { conditionsSchema } from './condition-schema.js';
import { customResourceDefinition, type ResourceOf } from './custom-resource.js';
import {
  kubeAny,
  kubeAtomicList,
  kubeDuration,
  kubeEnum,
  kubeFreeObject,
  kubeInt32,
  kubeInt64,
  kubeListMap,
  kubeMap,
  kubeTime,
} from './kube-schema.js';

const nonEmpty = (description: string) => Type.String({ description, minLength: 1 });
const optionalString = (description: string) => Type.Optional(Type.String({ description }));
const optionalDuration = (description: string) =>
  Type.Optional(kubeDuration({ description: `${description} Go duration, e.g. 2s or 1m.` }));

/** One post-processing step applied to rendered output. */
export const PostProcessorSchema = Type.Object({
  type: kubeEnum(['regex_replace', 'template'] as const, {
    description: 'regex_replace (params pattern, replace) or template (gets the output as input).',
  }),
  params: kubeMap(Type.String(), { description: 'Parameters of the step.' }),
});

/** A rendered artefact: its template and post-processing. */
export const TemplatedFileSchema = Type.Object({
  template: nonEmpty('Template source.'),
  postProcessing: Type.Optional(
    kubeAtomicList(PostProcessorSchema, { description: 'Steps run in order after rendering.' }),
  ),
});

/** A reusable template fragment. */
export const TemplateSnippetSchema = Type.Object({
  template: nonEmpty('Template source, included with render "name".'),
  requires: Type.Optional(
    kubeAtomicList(Type.String(), { description: 'Snippets this one depends on.' }),
  ),
});

/** One resource type the controller watches and indexes. */
export const WatchedResourceSchema = Type.Object({
  apiVersion: Type.Optional(nonEmpty('API version, e.g. networking.k8s.io/v1.')),
  apiVersions: Type.Optional(
    kubeAtomicList(Type.String({ minLength: 1 }), {
      description: 'Candidate API versions in order; the first one served is used.',
    }),
  ),
  optional: Type.Optional(
    Type.Boolean({ description: 'Drop this resource (and what needs it) when not served.' }),
  ),
  resources: nonEmpty('Plural resource name, e.g. ingresses.'),
  indexBy: Type.Optional(
    kubeAtomicList(Type.String({ minLength: 1 }), {
      description: 'JSONPath-style index keys, e.g. metadata.namespace, metadata.name.',
    }),
  ),
  labelSelector: optionalString('Equality-only label selector, e.g. app=web,tier=front.'),
  fieldSelector: optionalString(
    'Client-side equality on a JSONPath, e.g. spec.ingressClassName=x.',
  ),
  namespaceSelector: Type.Optional(
    Type.Object({
      matchLabels: Type.Optional(kubeMap(Type.String())),
    }),
  ),
  store: Type.Optional(
    kubeEnum(['full', 'on-demand'] as const, {
      description: 'full keeps every object in memory; on-demand fetches with a TTL cache.',
    }),
  ),
  enableValidationWebhook: Type.Optional(Type.Boolean()),
  debounceInterval: optionalDuration('Debounce window of this watcher.'),
});

/** One assertion of an embedded validation test. */
export const ValidationAssertionSchema = Type.Object({
  type: kubeEnum(
    [
      'haproxy_valid',
      'contains',
      'not_contains',
      'equals',
      'match_count',
      'match_order',
      'jsonpath',
      'deterministic',
    ] as const,
    { description: 'Assertion type.' },
  ),
  target: optionalString('What to check, e.g. haproxy.cfg or map:hosts.map (default haproxy.cfg).'),
  pattern: optionalString('Regular expression (contains, not_contains, match_count).'),
  patterns: Type.Optional(
    kubeAtomicList(Type.String(), { description: 'Regular expressions in order (match_order).' }),
  ),
  expected: optionalString('Expected value (equals, match_count, jsonpath).'),
  jsonpath: optionalString('JSONPath expression (jsonpath).'),
  description: optionalString('What the assertion proves.'),
});

/** An embedded validation test. */
export const ValidationTestSchema = Type.Object({
  description: optionalString('What the test validates.'),
  fixtures: kubeMap(kubeAtomicList(kubeFreeObject()), {
    description: 'Objects per watched resource name.',
  }),
  httpResources: Type.Optional(
    kubeListMap(
      Type.Object({
        url: nonEmpty('URL answered with content instead of fetching.'),
        content: Type.String(),
      }),
      ['url'],
    ),
  ),
  currentConfig: optionalString('haproxy.cfg of a previous deployment, for slot-aware tests.'),
  extraContext: Type.Optional(kubeFreeObject({ description: 'Overrides extraContext.' })),
  minHAProxyVersion: Type.Optional(
    Type.String({ pattern: '^[0-9]+\\.[0-9]+$', description: 'major.minor' }),
  ),
  assertions: kubeAtomicList(ValidationAssertionSchema, { minItems: 1 }),
});

/** A pluggable validator sidecar reached over a Unix socket. */
export const ValidatorSchema = Type.Object({
  name: nonEmpty('Unique validator name.'),
  socketPath: nonEmpty('Unix socket of the validator.'),
  files: Type.Optional(
    kubeAtomicList(Type.String(), { description: 'Globs of files the validator receives.' }),
  ),
  timeoutMs: Type.Optional(kubeInt32({ minimum: 1, default: 5000 })),
  maxConnections: Type.Optional(kubeInt32({ minimum: 1, default: 4 })),
});

/** Spec of HAProxyTemplateConfig. */
export const HAProxyTemplateConfigSpecSchema = Type.Object({
  credentialsSecretRef: Type.Object(
    {
      name: nonEmpty('Secret name.'),
      namespace: optionalString('Secret namespace; defaults to the config namespace.'),
    },
    { description: 'Secret with dataplane_username and dataplane_password.' },
  ),
  podSelector: Type.Object(
    {
      matchLabels: kubeMap(Type.String(), { minProperties: 1 }),
    },
    { description: 'Labels of the HAProxy pods to configure.' },
  ),
  watchedResources: kubeMap(WatchedResourceSchema, {
    description: 'Watched resource types by name; the name is resources.<name> in templates.',
    minProperties: 1,
  }),
  watchedResourcesIgnoreFields: Type.Optional(
    kubeAtomicList(Type.String(), {
      description: 'JSONPaths removed from every watched object, e.g. metadata.managedFields.',
    }),
  ),
  haproxyConfig: Type.Optional(TemplatedFileSchema),
  templateSnippets: Type.Optional(kubeMap(TemplateSnippetSchema)),
  maps: Type.Optional(kubeMap(TemplatedFileSchema, { description: 'Map files by file name.' })),
  files: Type.Optional(kubeMap(TemplatedFileSchema, { description: 'General files by name.' })),
  sslCertificates: Type.Optional(
    kubeMap(TemplatedFileSchema, { description: 'Certificates by file name (output to Secrets).' }),
  ),
  k8sResources: Type.Optional(
    kubeMap(TemplatedFileSchema, { description: 'Multi-document YAML applied with SSA.' }),
  ),
  templatingSettings: Type.Optional(
    Type.Object({
      engine: Type.Optional(Type.String()),
      extraContext: Type.Optional(kubeFreeObject({ description: 'Exposed to every template.' })),
    }),
  ),
  validationTests: Type.Optional(
    kubeMap(ValidationTestSchema, { description: 'Tests by name; _global applies to all.' }),
  ),
  validators: Type.Optional(kubeListMap(ValidatorSchema, ['name'])),
  libraryRefs: Type.Optional(
    kubeAtomicList(
      Type.Object({
        name: nonEmpty('HAProxyTemplateLibrary name.'),
        revision: nonEmpty('Expected revision of the library.'),
      }),
      { description: 'Libraries merged in order before this config (later wins).' },
    ),
  ),
  migrationCoverage: Type.Optional(kubeAny({ description: 'Opaque data for migration reports.' })),
  controller: Type.Optional(
    Type.Object({
      leaderElection: Type.Optional(
        Type.Object({
          enabled: Type.Optional(Type.Boolean()),
          leaseName: Type.Optional(Type.String({ minLength: 1 })),
          leaseDuration: optionalDuration('Lease duration (default 15s).'),
          renewDeadline: optionalDuration('Renew deadline (default 10s).'),
          retryPeriod: optionalDuration('Retry period (default 2s).'),
        }),
      ),
      configPublishing: Type.Optional(
        Type.Object({
          compressionThreshold: Type.Optional(
            kubeInt64({ minimum: 0, description: 'Bytes above which content is compressed.' }),
          ),
        }),
      ),
      reconciliationDebounceInterval: optionalDuration('Minimum time between reconciliations.'),
    }),
  ),
  logging: Type.Optional(
    Type.Object({
      level: Type.Optional(kubeEnum(['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'] as const)),
    }),
  ),
  dataplane: Type.Optional(
    Type.Object({
      port: Type.Optional(kubeInt32({ minimum: 1, maximum: 65535 })),
      minDeploymentInterval: optionalDuration('Minimum time between deployments.'),
      driftPreventionInterval: optionalDuration('Redeploy after this long without one.'),
      deploymentTimeout: optionalDuration('Deployment considered lost after this.'),
      configPublishInterval: optionalDuration('Throttle of HAProxyCfg publishing.'),
      reloadVerificationTimeout: optionalDuration('Wait for a reload to complete.'),
      syncTimeout: optionalDuration('Timeout of one sync to one pod.'),
      mapsDir: optionalString('Directory of map files, relative to the base dir (default maps).'),
      sslCertsDir: optionalString(
        'Directory of certificates, relative to the base dir (default certs).',
      ),
      generalStorageDir: optionalString(
        'Directory of general files, relative to the base dir (default files).',
      ),
      crtListDir: optionalString(
        'Directory of crt-lists, relative to the base dir (default crt-lists).',
      ),
      configFile: optionalString(
        'Path of haproxy.cfg: haproxy.cfg, or an absolute path naming the base dir.',
      ),
      maxParallel: Type.Optional(kubeInt32({ minimum: 0 })),
      rawPushThreshold: Type.Optional(kubeInt32({ minimum: 0 })),
    }),
  ),
});

/** Status of HAProxyTemplateConfig (written by the config validator). */
export const HAProxyTemplateConfigStatusSchema = Type.Object({
  observedGeneration: Type.Optional(kubeInt64({ minimum: 0 })),
  lastValidated: Type.Optional(kubeTime({ description: 'When the config was last validated.' })),
  validationStatus: Type.Optional(kubeEnum(['Valid', 'Invalid', 'Unknown'] as const)),
  validationMessage: optionalString('Summary of the last validation.'),
  validationErrors: Type.Optional(
    kubeAtomicList(Type.String(), { description: 'Errors of the last validation.' }),
  ),
  conditions: Type.Optional(conditionsSchema('Observations, e.g. Validated.')),
});

/** Spec of HAProxyTemplateConfig. */
export type HAProxyTemplateConfigSpec = Static<typeof HAProxyTemplateConfigSpecSchema>;
/** Status of HAProxyTemplateConfig. */
export type HAProxyTemplateConfigStatus = Static<typeof HAProxyTemplateConfigStatusSchema>;
/** An HAProxyTemplateConfig object. */
export type HAProxyTemplateConfig = ResourceOf<
  'HAProxyTemplateConfig',
  typeof HAProxyTemplateConfigSpecSchema,
  typeof HAProxyTemplateConfigStatusSchema
>;

/** The HAProxyTemplateConfig CRD. */
export function haproxyTemplateConfigCrd(): ReturnType<typeof customResourceDefinition> {
  return customResourceDefinition({
    kind: 'HAProxyTemplateConfig',
    plural: 'haproxytemplateconfigs',
    singular: 'haproxytemplateconfig',
    shortNames: ['htplcfg', 'haptpl'],
    description: 'Templates, watched resources and settings of the HAPTIC controller.',
    spec: HAProxyTemplateConfigSpecSchema,
    status: HAProxyTemplateConfigStatusSchema,
    printerColumns: [{ name: 'Status', type: 'string', jsonPath: '.status.validationStatus' }],
  });
}
