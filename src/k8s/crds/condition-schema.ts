/**
 * metav1.Condition as a CRD schema. CRDs get none of Go's ValidateCondition checks, so the
 * schema repeats them (../shared/design/STATUS-OWNERSHIP.md §3): required fields, the status
 * enum, the type and reason patterns, lengths, and a date-time lastTransitionTime.
 */
import Type, { type Static, type TArray } from 'typebox';
import { kubeEnum, kubeInt64, kubeListMap, kubeTime } from './kube-schema.js';

/** Pattern of `type`: a qualified name, CamelCase or `example.com/CamelCase`. */
export const CONDITION_TYPE_PATTERN =
  '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$';

/** Pattern of `reason`: one CamelCase word (letters, digits, `_`, `,`, `:`). */
export const CONDITION_REASON_PATTERN = '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$';

/** One condition. */
export const ConditionSchema = Type.Object(
  {
    type: Type.String({
      description: 'Type of condition in CamelCase or in foo.example.com/CamelCase.',
      maxLength: 316,
      pattern: CONDITION_TYPE_PATTERN,
    }),
    status: kubeEnum(['True', 'False', 'Unknown'] as const, {
      description: 'Status of the condition: True, False or Unknown.',
    }),
    observedGeneration: Type.Optional(
      kubeInt64({
        description: 'The .metadata.generation the condition was computed from.',
        minimum: 0,
      }),
    ),
    lastTransitionTime: kubeTime({
      description: 'When the condition last changed from one status to another.',
    }),
    reason: Type.String({
      description: 'Programmatic identifier of the cause, one CamelCase word.',
      minLength: 1,
      maxLength: 1024,
      pattern: CONDITION_REASON_PATTERN,
    }),
    message: Type.String({
      description: 'Human-readable details; may be empty.',
      maxLength: 32768,
    }),
  },
  { description: 'One aspect of the current state of the object (metav1.Condition).' },
);

/** A condition. */
export type Condition = Static<typeof ConditionSchema>;

/** `status.conditions`: a list-map keyed by `type`, so each writer owns its own entries. */
export function conditionsSchema(description: string): TArray<typeof ConditionSchema> {
  return kubeListMap(ConditionSchema, ['type'], { description, maxItems: 32 });
}
