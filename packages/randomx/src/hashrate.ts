// Prints the RandomX pool's figures on this machine: time and memory to build a seed's cache
// (and dataset in full mode), and hashes per second.
//
//   npx tsx packages/randomx/src/hashrate.ts [light|full] [threads] [seconds]
import { RANDOMX_MODES, RandomXPool, type RandomXMode } from './index.js';

const mode = (process.argv[2] ?? 'light') as RandomXMode;
if (!RANDOMX_MODES.includes(mode)) throw new Error(`mode is one of ${RANDOMX_MODES.join(', ')}`);
const threads = Number(process.argv[3] ?? 1);
const seconds = Number(process.argv[4] ?? 10);
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

const pool = new RandomXPool({ mode, threads });
const seed = new Uint8Array(32).fill(7);
const rssBefore = process.memoryUsage().rss;
let started = performance.now();
await pool.prepare(seed);
const prepareMs = performance.now() - started;
const rssAfter = process.memoryUsage().rss;
process.stdout.write(
  `${mode} mode, ${threads} thread(s): seed ready in ${prepareMs.toFixed(0)} ms, ` +
    `RSS +${mib(rssAfter - rssBefore)} (cache${mode === 'full' ? ' + dataset' : ''} + one VM + the threads, started by this first prepare)\n`,
);

const blob = new Uint8Array(76);
const view = new DataView(blob.buffer);
let nonce = 0;
let hashes = 0;
started = performance.now();
const deadline = started + seconds * 1000;
const worker = async (): Promise<void> => {
  while (performance.now() < deadline) {
    const own = new Uint8Array(blob);
    new DataView(own.buffer).setUint32(39, nonce++, true);
    await pool.hash(seed, own);
    hashes++;
  }
};
view.setUint32(0, 0x10101010, true);
// Two requests in flight per thread keep every thread busy between replies.
await Promise.all(Array.from({ length: threads * 2 }, () => worker()));
const elapsed = (performance.now() - started) / 1000;
process.stdout.write(
  `${hashes} hashes in ${elapsed.toFixed(1)} s: ${(hashes / elapsed).toFixed(1)} H/s ` +
    `(${(hashes / elapsed / threads).toFixed(1)} H/s per thread), RSS ${mib(process.memoryUsage().rss)}\n`,
);
await pool.close();
