// Test support: a TCP relay standing for a network link (between a region's leaf server and the
// core) that a test cuts and restores.
import { createServer, connect as connectTcp, type Server, type Socket } from 'node:net';

/** A TCP relay from a local port to `target`; cut() drops every connection and refuses new ones. */
export interface TcpRelay {
  readonly port: number;
  /** Whether connections pass right now. */
  readonly open: boolean;
  cut(): Promise<void>;
  restore(): Promise<void>;
  stop(): Promise<void>;
}

export async function startTcpRelay(targetPort: number): Promise<TcpRelay> {
  let port = 0; // the first listen picks a free port; a restore listens on the same one
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const s = createServer((inbound) => {
        const outbound = connectTcp(targetPort, '127.0.0.1');
        for (const socket of [inbound, outbound]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => undefined);
        }
        inbound.pipe(outbound);
        outbound.pipe(inbound);
        inbound.on('close', () => outbound.destroy());
        outbound.on('close', () => inbound.destroy());
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        const address = s.address();
        port = typeof address === 'object' && address ? address.port : port;
        resolve();
      });
      server = s;
    });
  const close = (): Promise<void> => {
    const s = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    return new Promise((resolve) => (s ? s.close(() => resolve()) : resolve()));
  };
  await listen();
  return {
    get port() {
      return port;
    },
    get open() {
      return server !== undefined;
    },
    cut: close,
    restore: async () => {
      if (!server) await listen();
    },
    stop: close,
  };
}
