/**
 * Per-pod deployment status shared by HAProxyCfg and the auxiliary file CRDs:
 * `status.deployedToPods` is a list-map keyed by `podName`, so the pod-status worker can own
 * each pod's entry and drop it when the pod terminates.
 */
import Type, { type Static, type TArray } from 'typebox';
import { kubeDuration, kubeInt32, kubeListMap, kubeTime } from './kube-schema.js';

const count = (description: string) => Type.Optional(kubeInt32({ description, minimum: 0 }));

/** What the last sync to one pod did, by section. */
export const OperationSummarySchema = Type.Object(
  {
    totalAPIOperations: count('All operations of the sync, across every section.'),
    backendsAdded: count('Backends added.'),
    backendsRemoved: count('Backends removed.'),
    backendsModified: count('Backends modified.'),
    serversAdded: count('Servers added across all backends.'),
    serversRemoved: count('Servers removed across all backends.'),
    serversModified: count('Servers modified across all backends.'),
    frontendsAdded: count('Frontends added.'),
    frontendsRemoved: count('Frontends removed.'),
    frontendsModified: count('Frontends modified.'),
  },
  { description: 'Counts of the operations of the last sync.' },
);

/** Deployment state of one HAProxy pod. */
export const PodDeploymentStatusSchema = Type.Object(
  {
    podName: Type.String({ description: 'Name of the HAProxy pod.', minLength: 1 }),
    deployedAt: kubeTime({ description: 'Last successful sync to this pod.' }),
    checksum: Type.Optional(Type.String({ description: 'Checksum of the content on the pod.' })),
    lastReloadAt: Type.Optional(kubeTime({ description: 'Last HAProxy reload for this pod.' })),
    lastReloadID: Type.Optional(Type.String({ description: 'Identifier of the last reload.' })),
    syncDuration: Type.Optional(kubeDuration({ description: 'Duration of the last sync.' })),
    versionConflictRetries: count('Version conflicts retried during the last sync.'),
    fallbackUsed: Type.Optional(
      Type.Boolean({ description: 'The last sync fell back to a full reload.' }),
    ),
    lastOperationSummary: Type.Optional(OperationSummarySchema),
    lastError: Type.Optional(
      Type.String({ description: 'Error of the last failed sync; cleared on success.' }),
    ),
    consecutiveErrors: count('Failed syncs in a row; reset on success.'),
    lastErrorAt: Type.Optional(kubeTime({ description: 'When the last sync error happened.' })),
  },
  { description: 'Deployment state of one HAProxy pod.' },
);

/** Deployment state of one pod. */
export type PodDeploymentStatus = Static<typeof PodDeploymentStatusSchema>;

/** `status.deployedToPods`: a list-map keyed by pod name. */
export function deployedToPodsSchema(): TArray<typeof PodDeploymentStatusSchema> {
  return kubeListMap(PodDeploymentStatusSchema, ['podName'], {
    description: 'Pods that have this content, one entry per pod, removed when the pod ends.',
  });
}
