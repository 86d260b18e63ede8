/**
 * Client of HAProxy's runtime API (a `stats socket ... level admin`). Each command travels on
 * its own connection; arguments are sanitised; `<<` payloads are chunked below HAProxy 2.6's
 * silent 16 KiB limit.
 */
import { sleep } from '../../core/abort.js';
import {
  assertSafePayloadLines,
  chunkPayloadLines,
  formatRuntimeCommand,
  MAX_PAYLOAD_CHUNK_BYTES,
} from './runtime-command.js';
import { UnsafeRuntimeArgumentError } from './runtime-errors.js';
import { isConnectRefused, sendSocketCommand } from './send-socket-command.js';
import type { SocketAddress } from './socket-address.js';

/** Options of {@link RuntimeApiClient}. */
export interface RuntimeApiClientOptions {
  /** Per-command deadline (default 10 s). */
  readonly timeoutMs?: number;
  /** Connect attempts when the socket refuses (a worker being replaced); default 20, 50 ms apart. */
  readonly connectAttempts?: number;
  /** Payload chunk size in bytes (default 12 KiB). */
  readonly maxChunkBytes?: number;
  /** Prefix for every command, e.g. `@1` to reach worker 1 through the master socket. */
  readonly prefix?: string;
}

/** Sends runtime API commands to one HAProxy worker. */
export class RuntimeApiClient {
  readonly #address: SocketAddress;
  readonly #timeoutMs: number;
  readonly #attempts: number;
  readonly #chunkBytes: number;
  readonly #prefix: string;

  constructor(address: SocketAddress, opts: RuntimeApiClientOptions = {}) {
    this.#address = address;
    this.#timeoutMs = opts.timeoutMs ?? 10_000;
    this.#attempts = Math.max(1, opts.connectAttempts ?? 20);
    this.#chunkBytes = opts.maxChunkBytes ?? MAX_PAYLOAD_CHUNK_BYTES;
    this.#prefix = opts.prefix ? `${opts.prefix} ` : '';
  }

  /** The socket this client talks to. */
  get address(): SocketAddress {
    return this.#address;
  }

  /** Runs one command given as words and resolves to its answer with trailing blank lines removed. */
  async command(words: readonly string[], signal?: AbortSignal): Promise<string> {
    const line = formatRuntimeCommand(words);
    return trimAnswer(await this.#send(`${this.#prefix}${line}\n`, signal));
  }

  /**
   * Runs `<words> <<` once per payload chunk (each chunk at most the chunk size) and resolves to
   * the answers, one per chunk. Use only for commands whose payload lines are independent
   * (`add map`, `add ssl crt-list`).
   */
  async payloadCommand(
    words: readonly string[],
    lines: readonly string[],
    signal?: AbortSignal,
  ): Promise<string[]> {
    assertSafePayloadLines(lines);
    const line = formatRuntimeCommand(words);
    const answers: string[] = [];
    for (const chunk of chunkPayloadLines(lines, this.#chunkBytes)) {
      const text = `${this.#prefix}${line} <<\n${chunk.join('\n')}\n\n`;
      answers.push(trimAnswer(await this.#send(text, signal)));
    }
    return answers;
  }

  /**
   * Runs `<words> <<` with a payload that must travel in one piece (a PEM bundle for
   * `set ssl cert`); refused when it exceeds the chunk size.
   */
  async singlePayloadCommand(
    words: readonly string[],
    lines: readonly string[],
    signal?: AbortSignal,
  ): Promise<string> {
    assertSafePayloadLines(lines);
    const chunks = chunkPayloadLines(lines, this.#chunkBytes);
    if (chunks.length > 1) {
      throw new UnsafeRuntimeArgumentError(
        `payload for "${words.join(' ')}" exceeds ${this.#chunkBytes} bytes and cannot be split`,
      );
    }
    const line = formatRuntimeCommand(words);
    const text = `${this.#prefix}${line} <<\n${lines.join('\n')}\n\n`;
    return trimAnswer(await this.#send(text, signal));
  }

  async #send(text: string, signal: AbortSignal | undefined): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await sendSocketCommand(this.#address, text, {
          timeoutMs: this.#timeoutMs,
          ...(signal ? { signal } : {}),
        });
      } catch (err) {
        if (attempt >= this.#attempts || !isConnectRefused(err)) throw err;
        await sleep(50, signal);
      }
    }
  }
}

/** Removes the blank line(s) HAProxy appends after each answer. */
export function trimAnswer(answer: string): string {
  return answer.replace(/\s+$/, '');
}
