/**
 * Checks a CRD's openAPIV3Schema against the rules of ../shared/design/STATUS-OWNERSHIP.md
 * (rule 3, pitfalls P1, P5, P11) and the structural-schema rules of the API server, so a
 * mistake shows up in a unit test instead of as an atomic list that two writers fight over.
 */
import { ConditionSchema } from './condition-schema.js';
import type { CustomResourceDefinition } from './custom-resource.js';
import { plainSchema } from './kube-schema.js';

/** One broken rule at one schema path. */
export interface CrdFinding {
  readonly crd: string;
  /** Path in the object the schema describes, e.g. `.status.conditions[]`. */
  readonly path: string;
  readonly rule:
    | 'structural-type'
    | 'structural-object'
    | 'unsupported-keyword'
    | 'required-unknown'
    | 'list-type'
    | 'list-map-keys'
    | 'conditions'
    | 'status-default'
    | 'secret-material'
    | 'printer-column';
  readonly message: string;
}

/** Keywords of apiextensions.k8s.io/v1 JSONSchemaProps that structural schemas may use. */
const KEYWORDS = new Set([
  'description',
  'type',
  'format',
  'title',
  'default',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'multipleOf',
  'enum',
  'maxProperties',
  'minProperties',
  'required',
  'items',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'properties',
  'additionalProperties',
  'nullable',
  'example',
  'externalDocs',
]);

/** Property names that would put private key material into a CRD. */
const SECRET_NAME = /private.?key|tls.?key|^key(pem)?$/i;

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const CONDITION_JSON = JSON.stringify(plainSchema(ConditionSchema));

/** Returns every rule `crd` breaks; an empty list means it passes. */
export function lintCrd(crd: CustomResourceDefinition): CrdFinding[] {
  const findings: CrdFinding[] = [];
  for (const version of crd.spec.versions) {
    const root = version.schema.openAPIV3Schema;
    const report: Report = (path, rule, message) =>
      findings.push({ crd: `${crd.metadata.name}/${version.name}`, path, rule, message });
    walk(root, '', false, report);
    for (const column of version.additionalPrinterColumns) {
      if (column.jsonPath.startsWith('.metadata.')) continue;
      if (!resolves(root, column.jsonPath))
        report(column.jsonPath, 'printer-column', `column ${column.name} names no schema field`);
    }
  }
  return findings;
}

/** True when a simple `.a.b.c` path names a field of the schema. */
function resolves(root: Node, jsonPath: string): boolean {
  let node: unknown = root;
  for (const part of jsonPath.split('.').slice(1)) {
    const props = isNode(node) ? node['properties'] : undefined;
    node = isNode(props) ? props[part] : undefined;
    if (node === undefined) return false;
  }
  return true;
}

type Report = (path: string, rule: CrdFinding['rule'], message: string) => void;

function walk(node: Node, path: string, inStatus: boolean, report: Report): void {
  const preserve = node['x-kubernetes-preserve-unknown-fields'] === true;
  const intOrString = node['x-kubernetes-int-or-string'] === true;
  for (const key of Object.keys(node)) {
    if (!KEYWORDS.has(key) && !key.startsWith('x-kubernetes-'))
      report(path, 'unsupported-keyword', `"${key}" is not allowed in a CRD schema`);
  }
  if (typeof node['type'] !== 'string' && !preserve && !intOrString)
    report(path, 'structural-type', 'every node needs a type (or preserve-unknown-fields)');
  if (inStatus && node['default'] !== undefined)
    report(path, 'status-default', 'status fields must not have defaults');

  const properties = node['properties'];
  const additional = node['additionalProperties'];
  // The API server defines the root metadata schema itself; `{type: object}` is the norm there.
  if (node['type'] === 'object' && path !== '.metadata') {
    if (!isNode(properties) && !isNode(additional) && !preserve)
      report(
        path,
        'structural-object',
        'an object needs properties, additionalProperties or preserve-unknown-fields',
      );
  }
  if (isNode(properties)) {
    const required = Array.isArray(node['required']) ? (node['required'] as unknown[]) : [];
    for (const r of required) {
      if (typeof r !== 'string' || !(r in properties))
        report(path, 'required-unknown', `required "${String(r)}" is not a property`);
    }
    for (const [name, child] of Object.entries(properties)) {
      if (!isNode(child)) continue;
      const childPath = `${path}.${name}`;
      if (SECRET_NAME.test(name))
        report(childPath, 'secret-material', 'private keys belong in Secrets, never in a CRD');
      if (name === 'conditions') checkConditions(child, childPath, report);
      walk(child, childPath, inStatus || (path === '' && name === 'status'), report);
    }
  }
  if (isNode(additional)) walk(additional, `${path}.*`, inStatus, report);

  if (node['type'] === 'array') checkList(node, path, inStatus, report);
}

function checkList(node: Node, path: string, inStatus: boolean, report: Report): void {
  const listType = node['x-kubernetes-list-type'];
  if (listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    report(
      path,
      'list-type',
      `list needs an explicit x-kubernetes-list-type${inStatus ? ' (status list)' : ''}`,
    );
  }
  const items = node['items'];
  if (!isNode(items)) {
    report(path, 'structural-type', 'a list needs an items schema');
    return;
  }
  if (listType === 'map') {
    const keys = node['x-kubernetes-list-map-keys'];
    const itemProps = isNode(items['properties']) ? items['properties'] : {};
    const required = Array.isArray(items['required']) ? (items['required'] as unknown[]) : [];
    if (!Array.isArray(keys) || keys.length === 0) {
      report(path, 'list-map-keys', 'a map list needs x-kubernetes-list-map-keys');
    } else {
      for (const key of keys as unknown[]) {
        const prop = typeof key === 'string' ? itemProps[key] : undefined;
        if (typeof key !== 'string' || !isNode(prop)) {
          report(path, 'list-map-keys', `map key "${String(key)}" is not an item property`);
          continue;
        }
        if (!required.includes(key))
          report(path, 'list-map-keys', `map key "${key}" must be a required property`);
        if (!['string', 'integer', 'boolean'].includes(String(prop['type'])))
          report(path, 'list-map-keys', `map key "${key}" must be a scalar`);
      }
    }
  }
  walk(items, `${path}[]`, inStatus, report);
}

function checkConditions(node: Node, path: string, report: Report): void {
  const keys = node['x-kubernetes-list-map-keys'];
  if (
    node['type'] !== 'array' ||
    node['x-kubernetes-list-type'] !== 'map' ||
    !Array.isArray(keys) ||
    keys.length !== 1 ||
    keys[0] !== 'type'
  ) {
    report(path, 'conditions', 'conditions must be a list-map keyed by type');
  }
  if (JSON.stringify(node['items']) !== CONDITION_JSON)
    report(path, 'conditions', 'condition items must carry the full metav1.Condition schema');
}
