/**
 * The one definition of the "Probe"-style test CRDs: a namespaced custom resource with a status
 * subresource whose `status.conditions` is a list-map keyed by `type` with the full
 * metav1.Condition schema. The SSA suite, the harness smoke test, the REST-mapper test and the
 * status benchmark build their CRDs here, each in its own API group.
 */
import type { ApiResource } from '../../src/k8s/client/api-resource.js';

/** The full metav1.Condition schema (as apimachinery's ValidateCondition enforces it). */
export const conditionSchema = {
  type: 'object',
  required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'],
  properties: {
    type: {
      type: 'string',
      maxLength: 316,
      pattern:
        '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
    },
    status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
    observedGeneration: { type: 'integer', format: 'int64', minimum: 0 },
    lastTransitionTime: { type: 'string', format: 'date-time' },
    reason: {
      type: 'string',
      minLength: 1,
      maxLength: 1024,
      pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
    },
    message: { type: 'string', maxLength: 32768 },
  },
};

/** `conditions` as a list-map keyed by `type`, the way Kubernetes types declare it. */
export const conditionsListMap = {
  type: 'array',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['type'],
  items: conditionSchema,
};

/** The default spec schema of a test CRD. */
const DEFAULT_SPEC = {
  type: 'object',
  properties: { foo: { type: 'string' }, size: { type: 'integer' } },
};

/** What a test CRD is made of. */
export interface TestCrdOptions {
  readonly group: string;
  readonly plural: string;
  readonly kind: string;
  /** Schema of `status` (default: `{ conditions: list-map }`). */
  readonly status?: object;
  /** Schema of `spec` (default: `{ foo: string, size: integer }`). */
  readonly spec?: object;
}

/** A namespaced v1 CRD with a status subresource. */
export function testCrd(options: TestCrdOptions): object {
  const { group, plural, kind } = options;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: options.spec ?? DEFAULT_SPEC,
                status: options.status ?? {
                  type: 'object',
                  properties: { conditions: conditionsListMap },
                },
              },
            },
          },
        },
      ],
    },
  };
}

/** The resource descriptor of a CRD made by testCrd. */
export function testResource(group: string, plural: string): ApiResource {
  return { group, version: 'v1', resource: plural, namespaced: true };
}

/** Probe's status: conditions and listeners are list-maps, addresses atomic. */
const PROBE_STATUS = {
  type: 'object',
  properties: {
    observedGeneration: { type: 'integer', format: 'int64', minimum: 0 },
    conditions: conditionsListMap,
    listeners: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string' },
          attachedRoutes: { type: 'integer' },
          conditions: conditionsListMap,
        },
      },
    },
    addresses: {
      type: 'array',
      'x-kubernetes-list-type': 'atomic',
      items: { type: 'string' },
    },
  },
};

/** The Probe CRD (kind Probe, plural probes) in `group`. */
export function probeCrd(group: string): object {
  return testCrd({ group, plural: 'probes', kind: 'Probe', status: PROBE_STATUS });
}

/** The resource descriptor of probeCrd(group). */
export function probeResource(group: string): ApiResource {
  return testResource(group, 'probes');
}
