/** Reads an HAProxyTemplateConfig YAML file from disk. */
import { readFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { parseTemplateConfig } from './parse-template-config.js';
import type { TemplateConfig } from './template-config.js';
import { TemplateConfigError } from './template-errors.js';

/** Parses YAML text holding one HAProxyTemplateConfig; `source` names it in errors. */
export function parseTemplateConfigYaml(text: string, source: string): TemplateConfig {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) throw new TemplateConfigError(`${source}: invalid YAML: ${first.message}`);
  try {
    return parseTemplateConfig(doc.toJS({ maxAliasCount: 1000 }));
  } catch (err) {
    if (err instanceof TemplateConfigError) {
      throw new TemplateConfigError(`${source}: ${err.message}`, { cause: err });
    }
    throw err;
  }
}

/** Reads and parses the config file at `path`. */
export async function loadTemplateConfig(
  path: string,
  signal?: AbortSignal,
): Promise<TemplateConfig> {
  let text: string;
  try {
    text = await readFile(path, { encoding: 'utf8', ...(signal && { signal }) });
  } catch (err) {
    throw new TemplateConfigError(
      `read ${path}: ${err instanceof Error ? err.message : String(err)}`,
      {
        cause: err,
      },
    );
  }
  return parseTemplateConfigYaml(text, path);
}
