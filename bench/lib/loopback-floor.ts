// The machine's floor for a new tip: how long an idle Node process takes to write one mining.notify
// line to 1,000 loopback TCP sockets (one write each, Nagle off, as the pool's sessions write). No
// pool can tell 1,000 miners of a new block faster on this machine than this, whatever it does
// before the writes.
import net from 'node:net';

export interface LoopbackFloor {
  sockets: number;
  lineBytes: number;
  /** Median over the repetitions, ms. */
  medianMs: number;
  maxMs: number;
}

export async function measureLoopbackFloor(
  sockets: number,
  line: string,
  repetitions = 7,
): Promise<LoopbackFloor> {
  const server = net.createServer();
  const accepted: net.Socket[] = [];
  const clients: net.Socket[] = [];
  let received = 0;
  let wanted = 0;
  let allIn: (() => void) | undefined;
  server.on('connection', (socket) => {
    socket.setNoDelay(true);
    accepted.push(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  try {
    for (let i = 0; i < sockets; i++) {
      const client = net.connect(port, '127.0.0.1');
      client.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= wanted) allIn?.();
      });
      clients.push(client);
      await new Promise((resolve) => client.once('connect', resolve));
    }
    while (accepted.length < sockets) await new Promise((resolve) => setTimeout(resolve, 10));
    const bytes = Buffer.byteLength(line);
    const times: number[] = [];
    for (let r = 0; r < repetitions; r++) {
      wanted = received + bytes * sockets;
      const delivered = new Promise<void>((resolve) => (allIn = resolve));
      const start = performance.now();
      for (const socket of accepted) socket.write(line);
      times.push(performance.now() - start);
      await delivered;
    }
    times.sort((a, b) => a - b);
    return {
      sockets,
      lineBytes: bytes,
      medianMs: times[Math.floor(times.length / 2)] ?? Number.NaN,
      maxMs: times.at(-1) ?? Number.NaN,
    };
  } finally {
    for (const socket of [...clients, ...accepted]) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
}
