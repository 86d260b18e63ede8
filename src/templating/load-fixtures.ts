/**
 * Reads a multi-document YAML of Kubernetes objects (what `kubectl get -o yaml` prints) and routes
 * each object to the watched resource with its apiVersion and kind, for `haptic render`.
 */
import { readFile } from 'node:fs/promises';
import { parseAllDocuments } from 'yaml';
import { HAPROXY_PODS_FIXTURE } from './parse-template-config.js';
import type { TemplateConfig } from './template-config.js';
import { FixturesError } from './template-errors.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function pluralForms(kind: string): string[] {
  const k = kind.toLowerCase();
  const forms = [k, `${k}s`];
  if (/(s|x|z|ch|sh)$/.test(k)) forms.push(`${k}es`);
  if (/[^aeiou]y$/.test(k)) forms.push(`${k.slice(0, -1)}ies`);
  return forms;
}

/** Routes objects to watched resource names; a Pod no watched resource takes goes to `haproxy-pods`. */
export function routeFixtures(
  config: TemplateConfig,
  objects: readonly Obj[],
  source: string,
): Record<string, Obj[]> {
  const out: Record<string, Obj[]> = {};
  objects.forEach((o, i) => {
    const apiVersion = o['apiVersion'];
    const kind = o['kind'];
    const meta = isObj(o['metadata']) ? o['metadata'] : {};
    const label = `${source} object #${i + 1} (${typeof kind === 'string' ? kind : '?'} ${typeof meta['namespace'] === 'string' ? `${meta['namespace']}/` : ''}${typeof meta['name'] === 'string' ? meta['name'] : '?'})`;
    if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
      throw new FixturesError(`${label}: needs apiVersion and kind`);
    }
    const forms = pluralForms(kind);
    const target = Object.entries(config.watchedResources).find(
      ([, w]) => w.apiVersion === apiVersion && forms.includes(w.resources.toLowerCase()),
    )?.[0];
    const key =
      target ?? (apiVersion === 'v1' && kind === 'Pod' ? HAPROXY_PODS_FIXTURE : undefined);
    if (key === undefined) {
      const known = Object.entries(config.watchedResources).map(
        ([n, w]) => `${n} (${w.apiVersion} ${w.resources})`,
      );
      throw new FixturesError(
        `${label}: no watched resource has apiVersion ${apiVersion} and kind ${kind} (watched: ${known.join(', ')})`,
      );
    }
    (out[key] ??= []).push(o);
  });
  return out;
}

/** Parses multi-document YAML into objects, expanding `kind: List` (and `*List`) items. */
export function parseFixturesYaml(text: string, source: string): Obj[] {
  const objects: Obj[] = [];
  parseAllDocuments(text).forEach((doc, i) => {
    const first = doc.errors[0];
    if (first)
      throw new FixturesError(`${source} document #${i + 1}: invalid YAML: ${first.message}`);
    const value: unknown = doc.toJS({ maxAliasCount: 1000 });
    if (value === null || value === undefined) return;
    if (!isObj(value))
      throw new FixturesError(`${source} document #${i + 1}: must be a Kubernetes object`);
    const kind = value['kind'];
    if (typeof kind === 'string' && kind.endsWith('List') && Array.isArray(value['items'])) {
      for (const item of value['items'] as unknown[]) {
        if (!isObj(item))
          throw new FixturesError(`${source} document #${i + 1}: List items must be objects`);
        objects.push(item);
      }
    } else {
      objects.push(value);
    }
  });
  return objects;
}

/** Reads a fixtures file and routes its objects to the config's watched resources. */
export async function loadFixtures(
  config: TemplateConfig,
  path: string,
  signal?: AbortSignal,
): Promise<Record<string, Obj[]>> {
  let text: string;
  try {
    text = await readFile(path, { encoding: 'utf8', ...(signal && { signal }) });
  } catch (err) {
    throw new FixturesError(`read ${path}: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
  return routeFixtures(config, parseFixturesYaml(text, path), path);
}
