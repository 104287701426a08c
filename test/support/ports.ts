// A free TCP port for a process a test starts.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A port no socket holds now, picked by the kernel: the child binds it a moment later, and in that moment another
 * process (other suites run on this machine) may take it, so callers that can try again on EADDRINUSE do.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
