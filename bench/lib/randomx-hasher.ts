// The raw RandomX capacity, in a process of its own (forked by lib/randomx-capacity.ts, so it can
// be pinned to the pool's core and its CPU time is only this): the project's RandomXPool (the
// same worker threads and librandomx addon the pool verifies shares with), light mode, `threads`
// threads. It builds the seed's cache once, then on each request hashes distinct blobs (the frozen
// template's hashing blob with nonces counting up) for the time asked, two hashes queued per
// thread so no thread waits between replies, and stays idle between requests.
import { withMoneroNonce } from '@manjam/protocol/monero';
import { RandomXPool } from '@manjam/randomx';
import { hashingBlobNonceOffset } from '../../apps/server/test/support/coins/monero/stratum/miner.js';
import { XMR_HASHING_BLOB, XMR_SEED } from './fake-monerod.js';

export type HasherRequest = { type: 'hash'; seconds: number } | { type: 'stop' };

export type HasherMessage =
  | { type: 'ready'; threads: number; prepareMs: number }
  | {
      type: 'hashed';
      /** Hashes done by the deadline (the hashes/s figure), and in all (the per-CPU-second one). */
      inTime: number;
      hashes: number;
      /** The slice's length: hashes still running at its end count only in `hashes`, as the pool's window counts them. */
      seconds: number;
      /** CPU time of this process over the slice (all threads), microseconds. */
      cpuUs: number;
    }
  | { type: 'error'; message: string };

function send(message: HasherMessage): void {
  process.send?.(message);
}

async function main(threads: number): Promise<void> {
  const randomx = new RandomXPool({ threads, mode: 'light' });
  const seed = Uint8Array.from(Buffer.from(XMR_SEED, 'hex'));
  const blob = Uint8Array.from(Buffer.from(XMR_HASHING_BLOB, 'hex'));
  const nonceOffset = hashingBlobNonceOffset(blob);
  let nonce = 0;
  const started = performance.now();
  await randomx.prepare(seed);
  // Every thread builds its VM (and JIT code) before the first slice.
  await Promise.all(Array.from({ length: threads }, () => randomx.hash(seed, blob)));
  send({ type: 'ready', threads, prepareMs: performance.now() - started });

  const slice = async (seconds: number): Promise<void> => {
    const cpu = process.cpuUsage();
    const begun = performance.now();
    const deadline = begun + seconds * 1000;
    let hashes = 0;
    let inTime = 0;
    const lane = async (): Promise<void> => {
      while (performance.now() < deadline) {
        await randomx.hash(seed, withMoneroNonce(blob, nonceOffset, nonce++));
        hashes++;
        if (performance.now() <= deadline) inTime++;
      }
    };
    await Promise.all(Array.from({ length: threads * 2 }, () => lane()));
    const used = process.cpuUsage(cpu);
    send({
      type: 'hashed',
      inTime,
      hashes,
      seconds,
      cpuUs: used.user + used.system,
    });
  };
  process.on('message', (request: HasherRequest) => {
    if (request.type === 'stop') {
      void randomx.close().then(() => process.exit(0));
      return;
    }
    slice(request.seconds).catch((error: unknown) => send({ type: 'error', message: String(error) }));
  });
  process.on('disconnect', () => process.exit(0));
}

const threads = Number(process.argv[2]);
if (Number.isInteger(threads) && threads > 0) {
  main(threads).catch((error: unknown) => {
    send({ type: 'error', message: (error as Error).stack ?? String(error) });
    process.exit(1);
  });
} else {
  process.stderr.write('usage: randomx-hasher.ts <threads>\n');
  process.exit(2);
}
