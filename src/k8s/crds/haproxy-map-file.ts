/** HAProxyMapFile: one rendered HAProxy map file, published by the controller. */
import Type, { type Static } from 'typebox';
import { customResourceDefinition, type ResourceOf } from './custom-resource.js';
import { publishedFileFields } from './haproxy-cfg.js';
import { PublishedFileStatusSchema } from './published-file-status.js';

/** Spec of HAProxyMapFile. */
export const HAProxyMapFileSpecSchema = Type.Object({
  mapName: Type.String({ description: 'File name of the map, e.g. hosts.map.', minLength: 1 }),
  ...publishedFileFields(),
  entries: Type.String({ description: 'Map content: one "key value" per line.' }),
});

/** Spec of HAProxyMapFile. */
export type HAProxyMapFileSpec = Static<typeof HAProxyMapFileSpecSchema>;
/** An HAProxyMapFile object. */
export type HAProxyMapFile = ResourceOf<
  'HAProxyMapFile',
  typeof HAProxyMapFileSpecSchema,
  typeof PublishedFileStatusSchema
>;

/** The HAProxyMapFile CRD. */
export function haproxyMapFileCrd(): ReturnType<typeof customResourceDefinition> {
  return customResourceDefinition({
    kind: 'HAProxyMapFile',
    plural: 'haproxymapfiles',
    singular: 'haproxymapfile',
    shortNames: ['hpmap'],
    description: 'A rendered HAProxy map file, published by the controller; do not edit.',
    spec: HAProxyMapFileSpecSchema,
    status: PublishedFileStatusSchema,
    printerColumns: [
      { name: 'Map', type: 'string', jsonPath: '.spec.mapName' },
      { name: 'Checksum', type: 'string', jsonPath: '.spec.checksum', priority: 1 },
    ],
  });
}
