/**
 * HAProxyCRTListFile: one rendered crt-list, published by the controller. It names
 * certificate files; the certificates and their keys live in Secrets, never in a CRD.
 */
import Type, { type Static } from 'typebox';
import { customResourceDefinition, type ResourceOf } from './custom-resource.js';
import { publishedFileFields } from './haproxy-cfg.js';
import { PublishedFileStatusSchema } from './published-file-status.js';

/** Spec of HAProxyCRTListFile. */
export const HAProxyCRTListFileSpecSchema = Type.Object({
  listName: Type.String({ description: 'File name of the crt-list.', minLength: 1 }),
  ...publishedFileFields(),
  entries: Type.String({ description: 'crt-list content: one certificate line per entry.' }),
});

/** Spec of HAProxyCRTListFile. */
export type HAProxyCRTListFileSpec = Static<typeof HAProxyCRTListFileSpecSchema>;
/** An HAProxyCRTListFile object. */
export type HAProxyCRTListFile = ResourceOf<
  'HAProxyCRTListFile',
  typeof HAProxyCRTListFileSpecSchema,
  typeof PublishedFileStatusSchema
>;

/** The HAProxyCRTListFile CRD. */
export function haproxyCrtListFileCrd(): ReturnType<typeof customResourceDefinition> {
  return customResourceDefinition({
    kind: 'HAProxyCRTListFile',
    plural: 'haproxycrtlistfiles',
    singular: 'haproxycrtlistfile',
    shortNames: ['hpcl'],
    description: 'A rendered crt-list, published by the controller; do not edit.',
    spec: HAProxyCRTListFileSpecSchema,
    status: PublishedFileStatusSchema,
    printerColumns: [
      { name: 'List', type: 'string', jsonPath: '.spec.listName' },
      { name: 'Checksum', type: 'string', jsonPath: '.spec.checksum', priority: 1 },
    ],
  });
}
