// The miners of the sv2-pool drill's new-tip figure, in a process of their own (forked by
// lib/edge-sv2-pool-tips.ts with tsx), so that their decoding and decryption do not hold up the
// pool's event loop as they do when both share one process. One dialect's N connections at a
// time: N V2 connections (one extended channel each) or N V1 connections (subscribe +
// authorize), so the pool writes a new tip to that dialect's miners only. When armed, each
// records when its first bytes after the arm arrived (the pool's write, before any decoding here)
// and when it held the new work decoded (V2: SetNewPrevHash; V1: a clean mining.notify). Times
// are wall-clock milliseconds (performance.timeOrigin + now) so the parent can set them against
// its own clock. The connections come from many loopback addresses (lib/sv2-connect.ts).
import { hexToBytes } from '@noble/hashes/utils.js';
import { StratumTestClient } from '../../apps/server/test/support/coins/bitcoin/stratum/client.js';
import { connectV2, drillAddress } from './sv2-connect.js';

export type Dialect = 'v2' | 'v1';

export type TipClientsRequest =
  | { type: 'open'; dialect: Dialect; port: number; authority: string; n: number; address: string }
  | { type: 'arm' }
  | { type: 'close' }
  | { type: 'stop' };

export type TipClientsMessage =
  | { type: 'opened'; seconds: number }
  | { type: 'armed' }
  /** Wall-clock ms of the last connection's first bytes, and of its decoded new work. */
  | { type: 'arrived'; lastBytes: number; lastDecoded: number }
  | { type: 'closed' }
  | { type: 'error'; message: string };

const clock = (): number => performance.timeOrigin + performance.now();
const send = (m: TipClientsMessage): void => void process.send?.(m);

interface Miner {
  socket: { prependOnceListener(event: 'data', listener: () => void): unknown };
  /** Resolves when this miner holds the next tip's work, decoded. */
  nextWork(): Promise<unknown>;
  close(): void;
}

let miners: Miner[] = [];

async function openV2(request: Extract<TipClientsRequest, { type: 'open' }>): Promise<void> {
  const authority = hexToBytes(request.authority);
  for (let i = 0; i < request.n; i++) {
    const client = await connectV2(request.port, authority, i);
    await client.setup();
    const opened = await client.open('extended', `${request.address}.tip-v2-${i}`);
    if (!opened.ok) throw new Error(opened.errorCode);
    await opened.work;
    miners.push({
      socket: client.socket,
      nextWork: () => client.work(opened.channelId),
      close: () => client.close(),
    });
  }
}

async function openV1(request: Extract<TipClientsRequest, { type: 'open' }>): Promise<void> {
  for (let i = 0; i < request.n; i++) {
    const client = await StratumTestClient.connect(request.port, { localAddress: drillAddress(i) });
    await client.subscribe();
    await client.authorize(`${request.address}.tip-v1-${i}`);
    await client.waitForJob();
    miners.push({
      socket: client.socket,
      nextWork: () => {
        const seen = client.jobs.length;
        return client.waitForJob((j) => client.jobs.indexOf(j) >= seen && j.clean, 60_000);
      },
      close: () => void client.close(),
    });
  }
}

function arm(): void {
  let lastBytes = 0;
  const arrivals = miners.map(async (miner) => {
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

function closeAll(): void {
  for (const miner of miners) miner.close();
  miners = [];
}

process.on('message', (request: TipClientsRequest) => {
  if (request.type === 'open') {
    const t0 = performance.now();
    (request.dialect === 'v2' ? openV2(request) : openV1(request)).then(
      () => send({ type: 'opened', seconds: (performance.now() - t0) / 1000 }),
      (error: unknown) => send({ type: 'error', message: (error as Error).message }),
    );
  } else if (request.type === 'arm') {
    arm();
    send({ type: 'armed' });
  } else if (request.type === 'close') {
    closeAll();
    send({ type: 'closed' });
  } else {
    closeAll();
    process.exit(0);
  }
});
