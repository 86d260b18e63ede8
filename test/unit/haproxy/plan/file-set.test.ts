import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  digestContent,
  digestFileSet,
  fileSetFromRecord,
  sameContent,
} from '../../../../src/haproxy/plan/file-set.js';

describe('file sets', () => {
  it('digests content as lower-case hex sha256 of its bytes', () => {
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    assert.equal(digestContent('abc'), abc);
    assert.equal(digestContent(new Uint8Array([0x61, 0x62, 0x63])), abc);
  });

  it('lists the digest of every file sorted by path', () => {
    const digests = digestFileSet(fileSetFromRecord({ 'maps/b.map': '', 'haproxy.cfg': 'abc' }));
    assert.deepEqual(
      digests.map((d) => d.path),
      ['haproxy.cfg', 'maps/b.map'],
    );
    assert.equal(digests[0]?.digest, digestContent('abc'));
  });

  it('compares text and byte contents by their bytes', () => {
    assert.equal(sameContent('é', new Uint8Array([0xc3, 0xa9])), true);
    assert.equal(sameContent('a', 'b'), false);
    assert.equal(sameContent(new Uint8Array([1]), new Uint8Array([1, 2])), false);
  });
});
