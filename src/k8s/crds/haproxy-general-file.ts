/** HAProxyGeneralFile: one rendered general file (error page, Lua, ...), published by the controller. */
import Type, { type Static } from 'typebox';
import { customResourceDefinition, type ResourceOf } from './custom-resource.js';
import { publishedFileFields } from './haproxy-cfg.js';
import { PublishedFileStatusSchema } from './published-file-status.js';

/** Spec of HAProxyGeneralFile. */
export const HAProxyGeneralFileSpecSchema = Type.Object({
  fileName: Type.String({ description: 'File name, e.g. 503.http.', minLength: 1 }),
  ...publishedFileFields(),
  content: Type.String({ description: 'File content.' }),
});

/** Spec of HAProxyGeneralFile. */
export type HAProxyGeneralFileSpec = Static<typeof HAProxyGeneralFileSpecSchema>;
/** An HAProxyGeneralFile object. */
export type HAProxyGeneralFile = ResourceOf<
  'HAProxyGeneralFile',
  typeof HAProxyGeneralFileSpecSchema,
  typeof PublishedFileStatusSchema
>;

/** The HAProxyGeneralFile CRD. */
export function haproxyGeneralFileCrd(): ReturnType<typeof customResourceDefinition> {
  return customResourceDefinition({
    kind: 'HAProxyGeneralFile',
    plural: 'haproxygeneralfiles',
    singular: 'haproxygeneralfile',
    shortNames: ['hpgf'],
    description: 'A rendered general file, published by the controller; do not edit.',
    spec: HAProxyGeneralFileSpecSchema,
    status: PublishedFileStatusSchema,
    printerColumns: [
      { name: 'File', type: 'string', jsonPath: '.spec.fileName' },
      { name: 'Checksum', type: 'string', jsonPath: '.spec.checksum', priority: 1 },
    ],
  });
}
