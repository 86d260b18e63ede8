import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WatchStreamError } from '../../../../src/k8s/informer/informer-errors.js';
import { ndjsonLines } from '../../../../src/k8s/informer/ndjson-lines.js';

async function collect(chunks: (string | Buffer)[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const v of ndjsonLines(chunks, 'test')) out.push(v);
  return out;
}

describe('ndjsonLines', () => {
  it('joins a line split across chunks and splits several lines in one chunk', async () => {
    assert.deepEqual(await collect(['{"a":', '1}\n{"b":2}\n{"c"', ':3}\n']), [
      { a: 1 },
      { b: 2 },
      { c: 3 },
    ]);
  });

  it('decodes a multi-byte character split between two buffers', async () => {
    const bytes = Buffer.from('{"s":"é"}\n');
    const cut = bytes.indexOf(0xc3) + 1;
    assert.deepEqual(await collect([bytes.subarray(0, cut), bytes.subarray(cut)]), [{ s: 'é' }]);
  });

  it('skips blank lines and reads a last line without a newline', async () => {
    assert.deepEqual(await collect(['\n{"a":1}\r\n\n', '{"b":2}']), [{ a: 1 }, { b: 2 }]);
  });

  it('throws WatchStreamError on an undecodable line', async () => {
    await assert.rejects(collect(['{"a":1}\nnot json\n']), WatchStreamError);
  });
});
