/**
 * HAProxyCfg: the rendered haproxy.cfg the controller publishes (read-only for users). The
 * publisher owns the spec; the pod-status worker owns each `deployedToPods` entry; the verdict
 * worker owns its conditions (../shared/design/STATUS-OWNERSHIP.md, writers table).
 */
import Type, { type Static } from 'typebox';
import { conditionsSchema } from './condition-schema.js';
import { customResourceDefinition, type ResourceOf } from './custom-resource.js';
import { kubeAtomicList, kubeInt64, kubeTime } from './kube-schema.js';
import { deployedToPodsSchema } from './pod-deployment-status.js';

/** `sha256:` and 64 lower-case hex digits of the uncompressed content. */
export const CHECKSUM_PATTERN = '^sha256:[0-9a-f]{64}$';

/** Spec fields every published file has: path, checksum and compression flag. */
export function publishedFileFields(): {
  path: ReturnType<typeof Type.String>;
  checksum: ReturnType<typeof Type.String>;
  compressed: ReturnType<typeof Type.Optional<ReturnType<typeof Type.Boolean>>>;
} {
  return {
    path: Type.String({
      description: 'Path of the file, relative to the HAProxy base dir (maps/hosts.map).',
      minLength: 1,
    }),
    checksum: Type.String({
      description: 'sha256:<hex> of the uncompressed content.',
      pattern: CHECKSUM_PATTERN,
    }),
    compressed: Type.Optional(
      Type.Boolean({ description: 'The content is zstd-compressed and base64-encoded.' }),
    ),
  };
}

/** A reference to an object published with the config. */
export const ResourceReferenceSchema = Type.Object({
  kind: Type.String({ minLength: 1 }),
  name: Type.String({ minLength: 1 }),
  namespace: Type.Optional(Type.String()),
});

const references = (description: string) =>
  Type.Optional(kubeAtomicList(ResourceReferenceSchema, { description }));

/** Spec of HAProxyCfg. */
export const HAProxyCfgSpecSchema = Type.Object({
  ...publishedFileFields(),
  content: Type.String({ description: 'The rendered haproxy.cfg.', minLength: 1 }),
});

/** Status of HAProxyCfg. */
export const HAProxyCfgStatusSchema = Type.Object({
  deployedToPods: Type.Optional(deployedToPodsSchema()),
  auxiliaryFiles: Type.Optional(
    Type.Object(
      {
        mapFiles: references('HAProxyMapFile objects of this config.'),
        sslCertificates: references('Secrets holding the certificates of this config.'),
        generalFiles: references('HAProxyGeneralFile objects of this config.'),
        crtListFiles: references('HAProxyCRTListFile objects of this config.'),
      },
      { description: 'Objects published together with this config.' },
    ),
  ),
  metadata: Type.Optional(
    Type.Object({
      totalSize: Type.Optional(kubeInt64({ minimum: 0, description: 'Bytes of all files.' })),
      contentSize: Type.Optional(kubeInt64({ minimum: 0, description: 'Bytes of haproxy.cfg.' })),
      renderedAt: Type.Optional(kubeTime()),
      validatedAt: Type.Optional(kubeTime()),
    }),
  ),
  validationError: Type.Optional(
    Type.String({ description: 'Why the render was rejected (only on <name>-invalid).' }),
  ),
  observedGeneration: Type.Optional(kubeInt64({ minimum: 0 })),
  conditions: Type.Optional(conditionsSchema('Observations, e.g. ConfigValidated, Synced.')),
});

/** Spec of HAProxyCfg. */
export type HAProxyCfgSpec = Static<typeof HAProxyCfgSpecSchema>;
/** Status of HAProxyCfg. */
export type HAProxyCfgStatus = Static<typeof HAProxyCfgStatusSchema>;
/** An HAProxyCfg object. */
export type HAProxyCfg = ResourceOf<
  'HAProxyCfg',
  typeof HAProxyCfgSpecSchema,
  typeof HAProxyCfgStatusSchema
>;

/** The HAProxyCfg CRD. */
export function haproxyCfgCrd(): ReturnType<typeof customResourceDefinition> {
  return customResourceDefinition({
    kind: 'HAProxyCfg',
    plural: 'haproxycfgs',
    singular: 'haproxycfg',
    shortNames: ['hpcfg'],
    description: 'The rendered haproxy.cfg, published by the controller; do not edit.',
    spec: HAProxyCfgSpecSchema,
    status: HAProxyCfgStatusSchema,
    printerColumns: [
      { name: 'Checksum', type: 'string', jsonPath: '.spec.checksum' },
      { name: 'Size', type: 'integer', jsonPath: '.status.metadata.totalSize' },
    ],
  });
}
