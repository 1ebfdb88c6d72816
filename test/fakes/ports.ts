// A free TCP port, for a server that must know its address before it starts (a private redis-server,
// a site built with its final URL). The probe closes before the caller binds, so another process
// could take the port in between; on a test machine that race is rare and fails loudly.
import { createServer, type AddressInfo } from 'node:net';

export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
