/**
 * JSONPath for `jsonpath` assertions of validation tests: the same subset and evaluator as
 * `indexBy` (src/core/object-index/object-path.ts), so an expression means one thing wherever a
 * template author writes it. `metadata.name`, `.spec.rules[0].host`, `$.a.b`, `{.a.b}`,
 * `labels['app.kubernetes.io/name']`, `items[*].name` and `.*`; filters and slices are rejected.
 */
import { ObjectPathError } from '../core/object-index/object-index-errors.js';
import {
  compileObjectPath,
  selectObjectPath,
  type ObjectPath,
} from '../core/object-index/object-path.js';
import { TemplateConfigError } from './template-errors.js';

const cache = new Map<string, ObjectPath>();

/** Compiles `expr`; throws TemplateConfigError naming the expression when it is not supported. */
export function compileJsonPath(expr: string): ObjectPath {
  const cached = cache.get(expr);
  if (cached) return cached;
  let path: ObjectPath;
  try {
    path = compileObjectPath(expr);
  } catch (err) {
    if (err instanceof ObjectPathError)
      throw new TemplateConfigError(`JSONPath ${err.message}`, { cause: err });
    throw err;
  }
  cache.set(expr, path);
  return path;
}

/** Evaluates `expr` against `root` and returns every matched value (empty when nothing matches). */
export function evaluateJsonPath(root: unknown, expr: string): unknown[] {
  return selectObjectPath(root, compileJsonPath(expr));
}
