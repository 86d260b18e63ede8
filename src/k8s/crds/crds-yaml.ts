/** The project's CRDs as one multi-document YAML stream, for `haptic crds print`. */
import { stringify } from 'yaml';
import type { CustomResourceDefinition } from './custom-resource.js';

/** Multi-document YAML, each document starting with `---`. */
export function crdsYaml(crds: readonly CustomResourceDefinition[]): string {
  // lineWidth 0: never fold long regular expressions or descriptions.
  return crds.map((crd) => `---\n${stringify(crd, { lineWidth: 0 })}`).join('');
}
