// A Stratum port's listening socket: plain TCP, or TLS when the port's config has a certificate
// and key (`stratum.ports[].tls`). Shared by every dialect's ports; a TLS handshake that fails
// only closes that connection.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import type { StratumPortConfig } from '../config/index.js';

export function createStratumListener(
  tlsConfig: StratumPortConfig['tls'],
  onConnection: (socket: net.Socket) => void,
): net.Server {
  if (!tlsConfig) return net.createServer(onConnection);
  const server = tls.createServer(
    { cert: readFileSync(tlsConfig.cert), key: readFileSync(tlsConfig.key) },
    onConnection,
  );
  server.on('tlsClientError', () => undefined);
  return server;
}

/** Listens on `host:port` (0: any free port) with a deep accept backlog; resolves with the port. */
export function listenStratum(server: net.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port, backlog: 4096 }, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}
