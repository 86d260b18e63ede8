/** Splits a byte stream into newline-delimited JSON values (the watch wire format). */
import { WatchStreamError } from './informer-errors.js';

/**
 * Yields each JSON value of an NDJSON stream. Lines may arrive split across chunks or several
 * in one chunk; blank lines are skipped; an undecodable line throws WatchStreamError.
 */
export async function* ndjsonLines(
  chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  what: string,
): AsyncGenerator<unknown, void, undefined> {
  const decoder = new TextDecoder();
  let pending = '';
  const parse = (line: string): unknown => {
    try {
      return JSON.parse(line) as unknown;
    } catch (err) {
      throw new WatchStreamError(`${what}: undecodable watch line: ${line.slice(0, 200)}`, {
        cause: err,
      });
    }
  };
  for await (const chunk of chunks) {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      if (line) yield parse(line);
    }
  }
  pending += decoder.decode();
  if (pending.trim()) yield parse(pending.trim());
}
