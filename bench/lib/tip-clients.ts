// The miners of the sv2-pool drill's new-tip figure, in a process of their own (forked by
// lib/tip-clients-handle.ts with tsx), so that their decoding and decryption do not hold up the
// pool's event loop as they do when both share one process. N V2 connections (one extended
// channel each) and N V1 connections (subscribe + authorize); when armed, each records when its
// first bytes after the arm arrived (the pool's write, before any decoding here) and when it held
// the new work decoded (V2: SetNewPrevHash; V1: a clean mining.notify). Times are wall-clock
// milliseconds (performance.timeOrigin + now) so the parent can set them against its own clock.
import { hexToBytes } from '@noble/hashes/utils.js';
import { Sv2TestClient } from '../../apps/server/src/coins/bitcoin/stratum-v2/testing/client.js';
import { StratumTestClient } from '../../apps/server/test/support/coins/bitcoin/stratum/client.js';

export type TipClientsRequest =
  | { type: 'open'; v2Port: number; v1Port: number; authority: string; n: number; address: string }
  | { type: 'arm'; dialect: 'v2' | 'v1' }
  | { type: 'stop' };

export type TipClientsMessage =
  | { type: 'opened' }
  | { type: 'armed' }
  /** Wall-clock ms of the last connection's first bytes, and of its decoded new work. */
  | { type: 'arrived'; lastBytes: number; lastDecoded: number }
  | { type: 'error'; message: string };

const clock = (): number => performance.timeOrigin + performance.now();
const send = (m: TipClientsMessage): void => void process.send?.(m);

interface Miner {
  socket: { prependOnceListener(event: 'data', listener: () => void): unknown };
  /** Resolves when this miner holds the next tip's work, decoded. */
  nextWork(): Promise<unknown>;
  close(): void;
}

const miners: Record<'v2' | 'v1', Miner[]> = { v2: [], v1: [] };

async function open(request: Extract<TipClientsRequest, { type: 'open' }>): Promise<void> {
  const authority = hexToBytes(request.authority);
  for (let i = 0; i < request.n; i++) {
    const client = await Sv2TestClient.connect(request.v2Port, authority);
    await client.setup();
    const opened = await client.open('extended', `${request.address}.tip-v2-${i}`);
    if (!opened.ok) throw new Error(opened.errorCode);
    await opened.work;
    miners.v2.push({
      socket: client.socket,
      nextWork: () => client.work(opened.channelId),
      close: () => client.close(),
    });
  }
  for (let i = 0; i < request.n; i++) {
    const client = await StratumTestClient.connect(request.v1Port);
    await client.subscribe();
    await client.authorize(`${request.address}.tip-v1-${i}`);
    await client.waitForJob();
    miners.v1.push({
      socket: client.socket,
      nextWork: () => {
        const seen = client.jobs.length;
        return client.waitForJob((j) => client.jobs.indexOf(j) >= seen && j.clean, 60_000);
      },
      close: () => void client.close(),
    });
  }
}

function arm(dialect: 'v2' | 'v1'): void {
  let lastBytes = 0;
  const arrivals = miners[dialect].map(async (miner) => {
    // Before the client's own listener decodes the bytes.
    miner.socket.prependOnceListener('data', () => (lastBytes = Math.max(lastBytes, clock())));
    await miner.nextWork();
    return clock();
  });
  void Promise.all(arrivals).then(
    (times) => send({ type: 'arrived', lastBytes, lastDecoded: Math.max(...times) }),
    (error: unknown) => send({ type: 'error', message: (error as Error).message }),
  );
}

process.on('message', (request: TipClientsRequest) => {
  if (request.type === 'open') {
    open(request).then(
      () => send({ type: 'opened' }),
      (error: unknown) => send({ type: 'error', message: (error as Error).message }),
    );
  } else if (request.type === 'arm') {
    arm(request.dialect);
    send({ type: 'armed' });
  } else {
    for (const miner of [...miners.v2, ...miners.v1]) miner.close();
    process.exit(0);
  }
});
