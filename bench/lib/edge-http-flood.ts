// The http edge drill's attacker (forked by edge-http.ts; its own process, so its sockets come
// out of its own open-files limit, not the drill's): keeps up to `connections` HTTP connections
// open from the given source addresses, each sending headers that never end, and opens a new
// one whenever one is closed (at most `perSecond` new ones a second). Reports its counts each
// second over IPC. "Open" is this side's view: a connection the pool has not taken from the
// kernel's accept queue yet counts as open here (the pool's own figures are its /metrics).
import net from 'node:net';

export interface FloodRequest {
  type: 'start';
  port: number;
  addresses: string[];
  connections: number;
  perSecond: number;
}

export interface FloodCounts {
  type: 'counts';
  /** Connections open now (the pool has not closed them yet). */
  open: number;
  /** Most open at once. */
  peakOpen: number;
  attempted: number;
  /**
   * Closed by the pool without a byte written: refused at accept by a cap (the header deadline
   * answers 408 first). Counted here when the close reaches this side, possibly late: a
   * connection waits in the kernel's accept queue until the pool's event loop takes it.
   */
  refused: number;
  /** Closed by the pool with an HTTP answer (408 at the header deadline). */
  cut: number;
  /** connect() failed on this side (EADDRNOTAVAIL, EMFILE, a reset before the handshake ended). */
  failed: number;
}

const PARTIAL = 'GET /api/health HTTP/1.1\r\nHost: pool.example\r\nX-Hold: ';

function flood(request: FloodRequest): { counts: FloodCounts; stop: () => void } {
  const counts: FloodCounts = {
    type: 'counts',
    open: 0,
    peakOpen: 0,
    attempted: 0,
    refused: 0,
    cut: 0,
    failed: 0,
  };
  const sockets = new Set<net.Socket>();
  let next = 0;
  let running = true;
  const openOne = () => {
    const localAddress = request.addresses[next++ % request.addresses.length] as string;
    const socket = net.connect({ host: '127.0.0.1', port: request.port, localAddress });
    sockets.add(socket);
    counts.attempted += 1;
    let connectedAt = 0;
    let answered = false;
    socket.on('connect', () => {
      connectedAt = Date.now();
      counts.open += 1;
      counts.peakOpen = Math.max(counts.peakOpen, counts.open);
      socket.write(PARTIAL);
    });
    socket.on('data', () => (answered = true));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      if (!running) return;
      if (connectedAt === 0) counts.failed += 1;
      else {
        counts.open -= 1;
        if (answered) counts.cut += 1;
        else counts.refused += 1;
      }
    });
  };
  // Each tick tops the set up to the target, at most perSecond / 10 new connections.
  const timer = setInterval(() => {
    const room = request.connections - sockets.size;
    for (let i = 0; i < Math.min(room, Math.ceil(request.perSecond / 10)); i += 1) openOne();
  }, 100);
  return {
    counts,
    stop: () => {
      running = false;
      clearInterval(timer);
      for (const socket of sockets) socket.destroy();
    },
  };
}

let running: ReturnType<typeof flood> | undefined;
process.on('message', (message: FloodRequest | { type: 'stop' }) => {
  if (message.type === 'start') {
    running = flood(message);
    setInterval(() => process.send?.(running?.counts), 1_000).unref();
  } else {
    running?.stop();
    process.send?.(running?.counts, () => process.exit(0));
  }
});
