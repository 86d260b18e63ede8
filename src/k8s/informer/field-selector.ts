/**
 * Client-side field selectors: `metadata.name=x,spec.type!=ClusterIP`. The API server supports
 * only a few fields per resource server side, so informers filter on any path here. Terms are
 * ANDed; `=` and `==` test equality, `!=` inequality; a missing field compares as ''.
 */
import { ObjectPathError } from '../../core/object-index/object-index-errors.js';
import {
  compileObjectPath,
  evaluateObjectPath,
  keyString,
  type ObjectPath,
} from '../../core/object-index/object-path.js';

interface Term {
  readonly path: ObjectPath;
  readonly negate: boolean;
  readonly value: string;
}

/** A parsed field selector; `matches` tests one object. */
export interface FieldSelector {
  readonly source: string;
  matches(object: unknown): boolean;
}

/** Parses `selector`; throws ObjectPathError for a term without an operator or with a bad path. */
export function parseFieldSelector(selector: string): FieldSelector {
  const terms: Term[] = [];
  for (const raw of selector.split(',')) {
    const term = raw.trim();
    if (!term) continue;
    const m = /^([^!=]+?)\s*(!=|==|=)\s*(.*)$/.exec(term);
    if (!m?.[1] || !m[2])
      throw new ObjectPathError(`field selector "${selector}": term "${term}" needs =, == or !=`);
    terms.push({ path: compileObjectPath(m[1]), negate: m[2] === '!=', value: m[3] ?? '' });
  }
  return {
    source: selector,
    matches(object: unknown): boolean {
      return terms.every((t) => {
        const [first] = evaluateObjectPath(object, t.path);
        const actual = first === undefined ? '' : keyString(first);
        return (actual === t.value) !== t.negate;
      });
    },
  };
}
