/**
 * One request/response exchange with a HAProxy CLI socket: connect, write the command text,
 * half-close (the master CLI only answers after the client's FIN; the stats socket answers
 * either way), read until HAProxy closes. One command per connection keeps answers unambiguous.
 */
import { connect, type Socket } from 'node:net';
import { AbortedError, DeadlineExceededError } from '../../core/errors.js';
import { RuntimeSocketError } from './runtime-errors.js';
import { formatSocketAddress, type SocketAddress } from './socket-address.js';

/** Options of {@link sendSocketCommand}. */
export interface SendSocketCommandOptions {
  readonly signal?: AbortSignal;
  /** Deadline for connect + answer (default 10 s). */
  readonly timeoutMs?: number;
  /** Answers longer than this are cut off with an error (default 64 MiB). */
  readonly maxAnswerBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_ANSWER = 64 * 1024 * 1024;

/** Sends `text` (which must end with a newline) and resolves to HAProxy's whole answer. */
export function sendSocketCommand(
  address: SocketAddress,
  text: string,
  opts: SendSocketCommandOptions = {},
): Promise<string> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxAnswer = opts.maxAnswerBytes ?? DEFAULT_MAX_ANSWER;
  const where = formatSocketAddress(address);
  const { signal } = opts;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError(`command to ${where}`, { cause: signal.reason }));
      return;
    }
    const socket: Socket =
      address.kind === 'unix'
        ? connect({ path: address.path })
        : connect({ host: address.host, port: address.port });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (err: Error | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      if (err) reject(err);
      else resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onAbort = (): void => {
      finish(new AbortedError(`command to ${where}`, { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      finish(new DeadlineExceededError(`command to ${where}`, timeoutMs));
    }, timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('connect', () => {
      socket.end(text);
    });
    socket.on('data', (b: Buffer) => {
      size += b.length;
      if (size > maxAnswer) {
        finish(new RuntimeSocketError(`answer from ${where} exceeds ${maxAnswer} bytes`));
        return;
      }
      chunks.push(b);
    });
    socket.on('end', () => {
      finish(undefined);
    });
    socket.on('close', () => {
      finish(undefined);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      finish(
        new RuntimeSocketError(`${where}: ${err.code ?? err.message}`, {
          cause: err,
        }),
      );
    });
  });
}

/** True when the error means nobody accepted the connection (socket missing or refusing). */
export function isConnectRefused(err: unknown): boolean {
  if (!(err instanceof RuntimeSocketError)) return false;
  const cause = err.cause as NodeJS.ErrnoException | undefined;
  return cause?.code === 'ECONNREFUSED' || cause?.code === 'ENOENT' || cause?.code === 'EAGAIN';
}

/**
 * True for errors a master process being re-executed causes (refused or reset connections);
 * used only where repeating the command is harmless (`show proc`, `reload`).
 */
export function isTransientMasterError(err: unknown): boolean {
  if (isConnectRefused(err)) return true;
  if (!(err instanceof RuntimeSocketError)) return false;
  const cause = err.cause as NodeJS.ErrnoException | undefined;
  return cause?.code === 'ECONNRESET' || cause?.code === 'EPIPE';
}
