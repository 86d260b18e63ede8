/** Every CRD the project ships, in install order. */
import type { CustomResourceDefinition } from './custom-resource.js';
import { haproxyCfgCrd } from './haproxy-cfg.js';
import { haproxyCrtListFileCrd } from './haproxy-crt-list-file.js';
import { haproxyGeneralFileCrd } from './haproxy-general-file.js';
import { haproxyMapFileCrd } from './haproxy-map-file.js';
import { haproxyTemplateConfigCrd } from './haproxy-template-config.js';

/** The project's CustomResourceDefinitions (fresh objects on every call). */
export function projectCrds(): CustomResourceDefinition[] {
  return [
    haproxyTemplateConfigCrd(),
    haproxyCfgCrd(),
    haproxyMapFileCrd(),
    haproxyGeneralFileCrd(),
    haproxyCrtListFileCrd(),
  ];
}
