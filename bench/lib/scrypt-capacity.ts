// What the cores can hash with Node's scrypt (N=1024, r=1, p=1, 32 bytes: Litecoin's proof of
// work): one worker thread per core, each hashing distinct 80-byte headers for a fixed time.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

const HASHER = `
const { parentPort, workerData } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
const header = Buffer.alloc(80, workerData.seed);
const options = { N: 1024, r: 1, p: 1 };
const started = performance.now();
const deadline = started + workerData.seconds * 1000;
let hashes = 0;
while (performance.now() < deadline) {
  for (let i = 0; i < 64; i++) {
    header.writeUInt32LE(hashes++ >>> 0, 76);
    scryptSync(header, header, 32, options);
  }
}
parentPort.postMessage({ hashes, seconds: (performance.now() - started) / 1000 });
`;

export interface ScryptCapacity {
  threads: number;
  hashes: number;
  seconds: number;
  perSecond: number;
  /** Hashes per CPU-second of this process over the measurement (fair on a loaded machine). */
  perCpuSecond: number;
}

export async function measureScryptCapacity(
  seconds: number,
  threads = availableParallelism(),
): Promise<ScryptCapacity> {
  const cpu = process.cpuUsage();
  const runs = await Promise.all(
    Array.from(
      { length: threads },
      (_, seed) =>
        new Promise<{ hashes: number; seconds: number }>((resolve, reject) => {
          const worker = new Worker(HASHER, { eval: true, workerData: { seconds, seed } });
          worker.once('message', (m: { hashes: number; seconds: number }) => {
            resolve(m);
            void worker.terminate();
          });
          worker.once('error', reject);
        }),
    ),
  );
  const hashes = runs.reduce((n, r) => n + r.hashes, 0);
  const wall = Math.max(...runs.map((r) => r.seconds));
  const used = process.cpuUsage(cpu);
  return {
    threads,
    hashes,
    seconds: wall,
    perSecond: hashes / wall,
    perCpuSecond: hashes / ((used.user + used.system) / 1e6),
  };
}
