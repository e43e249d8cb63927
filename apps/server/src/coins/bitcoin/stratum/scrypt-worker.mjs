// One Scrypt validation thread of ScryptPool (pow-pool.ts): hashes each batch of 80-byte headers
// it is sent and answers the 32-byte hashes in the same order. Plain JavaScript so that it loads
// without a TypeScript loader (under node, tsx and vitest alike).
import { parentPort } from 'node:worker_threads';
import { ScryptBatch } from '@manjam/protocol/scrypt-simd';

const batch = new ScryptBatch();

parentPort.on('message', (message) => {
  const hashes = batch.hashHeaders(message.headers);
  parentPort.postMessage({ seq: message.seq, hashes }, [hashes.buffer]);
});
