/** Status of the auxiliary file CRDs: per-pod deployment, observed generation, conditions. */
import Type, { type Static } from 'typebox';
import { conditionsSchema } from './condition-schema.js';
import { kubeInt64 } from './kube-schema.js';
import { deployedToPodsSchema } from './pod-deployment-status.js';

/** Status shared by HAProxyMapFile, HAProxyGeneralFile and HAProxyCRTListFile. */
export const PublishedFileStatusSchema = Type.Object({
  deployedToPods: Type.Optional(deployedToPodsSchema()),
  observedGeneration: Type.Optional(kubeInt64({ minimum: 0 })),
  conditions: Type.Optional(conditionsSchema('Observations of this file.')),
});

/** Status of an auxiliary file object. */
export type PublishedFileStatus = Static<typeof PublishedFileStatusSchema>;
