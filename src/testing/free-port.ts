/** Free TCP ports on loopback for test servers. */
import { createServer } from 'node:net';

/** Asks the kernel for a free port on 127.0.0.1 (it may be taken again before use; callers retry). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => {
        if (addr && typeof addr === 'object') resolve(addr.port);
        else reject(new Error('no port assigned'));
      });
    });
  });
}
