/**
 * FakeCliSocket: a unix socket server that behaves like HAProxy's CLI for one command per
 * connection: it reads until the client half-closes, records the text, and answers with what
 * the test's responder returns.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class FakeCliSocket {
  readonly dir = mkdtempSync(join(tmpdir(), 'haptic-fake-cli-'));
  readonly path = join(this.dir, 'cli.sock');
  readonly received: string[] = [];
  responder: (text: string) => string | null = () => '\n';
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();

  constructor() {
    this.#server = createServer({ allowHalfOpen: true }, (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      socket.on('end', () => {
        this.received.push(text);
        const answer = this.responder(text);
        if (answer === null) return; // never answer: lets tests hit timeouts
        socket.end(answer);
      });
      socket.on('error', () => undefined);
    });
  }

  listen(): Promise<void> {
    return new Promise((r) =>
      this.#server.listen(this.path, () => {
        r();
      }),
    );
  }

  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((r) =>
      this.#server.close(() => {
        r();
      }),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}
