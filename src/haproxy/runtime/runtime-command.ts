/**
 * Formatting and sanitising of HAProxy CLI commands. The CLI splits a line on `;` and ends it at a
 * newline, so any argument carrying those (or NUL and other control characters) could smuggle a
 * second command; such arguments are refused, never escaped. Spaces and backslashes are escaped
 * so that one argument stays one word.
 */
import { UnsafeRuntimeArgumentError } from './runtime-errors.js';

// Every C0 control character, DEL, and `;`.
// eslint-disable-next-line no-control-regex
const UNSAFE_ARGUMENT = /[\u0000-\u001f\u007f;]/;
// In a payload, newline and tab are legitimate; everything else below 0x20 is not.
// eslint-disable-next-line no-control-regex
const UNSAFE_PAYLOAD = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** Largest payload chunk sent in one command: HAProxy 2.6 silently drops payloads above ~16 KiB. */
export const MAX_PAYLOAD_CHUNK_BYTES = 12 * 1024;

/** Escapes one argument (spaces and backslashes) after refusing unsafe characters. */
export function escapeRuntimeArgument(arg: string): string {
  if (arg.length === 0) throw new UnsafeRuntimeArgumentError('empty runtime API argument');
  if (UNSAFE_ARGUMENT.test(arg)) {
    throw new UnsafeRuntimeArgumentError(
      `runtime API argument ${JSON.stringify(arg.slice(0, 80))} contains a newline, ';' or a control character`,
    );
  }
  return arg.replace(/\\/g, '\\\\').replace(/ /g, '\\ ');
}

/** Builds one command line (without the trailing newline) from its words. */
export function formatRuntimeCommand(words: readonly string[]): string {
  if (words.length === 0) throw new UnsafeRuntimeArgumentError('empty runtime API command');
  return words.map(escapeRuntimeArgument).join(' ');
}

/**
 * Checks payload lines for a `<<` command: no control characters except tab, no embedded newline,
 * and no empty line (an empty line ends the payload, so the rest would run as commands).
 */
export function assertSafePayloadLines(lines: readonly string[]): void {
  for (const [i, line] of lines.entries()) {
    if (line.length === 0 || line.trim().length === 0) {
      throw new UnsafeRuntimeArgumentError(
        `payload line ${i + 1} is empty; it would end the payload early`,
      );
    }
    if (line.includes('\n') || line.includes('\r') || UNSAFE_PAYLOAD.test(line)) {
      throw new UnsafeRuntimeArgumentError(
        `payload line ${i + 1} contains a line break or control character`,
      );
    }
  }
}

/** Splits a text payload (e.g. a PEM bundle) into lines, dropping a trailing newline and blank lines. */
export function payloadLines(text: string): string[] {
  return text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .filter((l) => l.trim().length > 0);
}

/**
 * Groups payload lines into chunks of at most `maxBytes` bytes each (a line longer than that
 * is refused: HAProxy would drop it silently).
 */
export function chunkPayloadLines(
  lines: readonly string[],
  maxBytes: number = MAX_PAYLOAD_CHUNK_BYTES,
): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const line of lines) {
    const bytes = Buffer.byteLength(line) + 1;
    if (bytes > maxBytes) {
      throw new UnsafeRuntimeArgumentError(
        `payload line of ${bytes} bytes exceeds the ${maxBytes}-byte chunk limit`,
      );
    }
    if (size + bytes > maxBytes && current.length > 0) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(line);
    size += bytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
