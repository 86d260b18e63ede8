/**
 * Builds a CustomResourceDefinition from TypeBox spec and status schemas, and the generic
 * TypeScript shape of an object of such a resource.
 */
import type { Static, TSchema } from 'typebox';
import { plainSchema } from './kube-schema.js';

/** API group of every project CRD. */
export const HAPTIC_GROUP = 'haproxy-haptic.org';
/** The one served and stored version. */
export const HAPTIC_VERSION_NAME = 'v1alpha1';
/** `apiVersion` of project objects. */
export const HAPTIC_API_VERSION = `${HAPTIC_GROUP}/${HAPTIC_VERSION_NAME}`;

/** The metadata fields the project reads or writes on its own objects. */
export interface ObjectMetaLite {
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly generation?: number;
  readonly creationTimestamp?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
}

/** An object of a project CRD with spec type S and status type T. */
export interface CustomResource<K extends string, S, T> {
  readonly apiVersion: typeof HAPTIC_API_VERSION;
  readonly kind: K;
  readonly metadata: ObjectMetaLite;
  readonly spec: S;
  readonly status?: T;
}

/** A column of `kubectl get`. */
export interface PrinterColumn {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  readonly jsonPath: string;
  readonly description?: string;
  readonly priority?: number;
}

/** What one project CRD is made of. */
export interface CrdDescription<S extends TSchema, T extends TSchema> {
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly description: string;
  readonly spec: S;
  readonly status: T;
  readonly printerColumns: readonly PrinterColumn[];
}

/** The apiextensions.k8s.io/v1 object (the fields the project sets). */
export interface CustomResourceDefinition {
  readonly apiVersion: 'apiextensions.k8s.io/v1';
  readonly kind: 'CustomResourceDefinition';
  readonly metadata: { readonly name: string; readonly labels: Record<string, string> };
  readonly spec: {
    readonly group: string;
    readonly names: {
      readonly kind: string;
      readonly listKind: string;
      readonly plural: string;
      readonly singular: string;
      readonly shortNames: string[];
      readonly categories: string[];
    };
    readonly scope: 'Namespaced';
    readonly versions: {
      readonly name: string;
      readonly served: boolean;
      readonly storage: boolean;
      readonly subresources: { readonly status: Record<string, never> };
      readonly additionalPrinterColumns: PrinterColumn[];
      readonly schema: { readonly openAPIV3Schema: Record<string, unknown> };
    }[];
  };
}

/** The static type of an object described by `d`. */
export type ResourceOf<K extends string, S extends TSchema, T extends TSchema> = CustomResource<
  K,
  Static<S>,
  Static<T>
>;

/** The CRD for `d`: namespaced, status subresource, `haptic` category, printer columns. */
export function customResourceDefinition<S extends TSchema, T extends TSchema>(
  d: CrdDescription<S, T>,
): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${d.plural}.${HAPTIC_GROUP}`,
      labels: { 'app.kubernetes.io/part-of': 'haptic' },
    },
    spec: {
      group: HAPTIC_GROUP,
      names: {
        kind: d.kind,
        listKind: `${d.kind}List`,
        plural: d.plural,
        singular: d.singular,
        shortNames: [...d.shortNames],
        categories: ['haptic'],
      },
      scope: 'Namespaced',
      versions: [
        {
          name: HAPTIC_VERSION_NAME,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            ...d.printerColumns,
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: d.description,
              required: ['spec'],
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: plainSchema(d.spec),
                status: plainSchema(d.status),
              },
            },
          },
        },
      ],
    },
  };
}
