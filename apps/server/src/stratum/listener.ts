// A Stratum port's listening socket: plain TCP, or TLS when the port's config has a certificate
// and key (`stratum.ports[].tls`). Shared by the V1 ports and the Monero (XMRig) port; a TLS
// handshake that fails only closes that connection.
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
