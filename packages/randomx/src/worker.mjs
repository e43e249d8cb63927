// One RandomX hashing thread of the pool in index.ts. Holds one VM per seed it has seen (the
// cache behind it is shared by the whole process, see addon.c) until the pool says to drop it.
//
// Messages in:  { type: 'hash', id, seed: Uint8Array, blob: Uint8Array }
//               { type: 'prepare', id, seed }          build the cache (and dataset) now
//               { type: 'drop', seed }                 release this thread's VM for seed
//               { type: 'exit' }                       release every VM and end the thread (after
//                                                      the messages before it are answered)
// Messages out: { ready: true } once the addon is loaded, then
//               { id, hash: Uint8Array } | { id } | { id, error: string }
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const native = require('../build/Release/randomx.node');
const { full, initThreads } = workerData;

/** seed (hex) -> VM */
const vms = new Map();

function vmFor(seed) {
  const key = Buffer.from(seed).toString('hex');
  let vm = vms.get(key);
  if (vm === undefined) {
    vm = native.acquire(seed, full, initThreads);
    vms.set(key, vm);
  }
  return vm;
}

parentPort.on('message', (message) => {
  if (message.type === 'exit') {
    for (const vm of vms.values()) native.release(vm);
    vms.clear();
    // Nothing else keeps the thread alive: it ends, and the pool sees it exit with code 0.
    parentPort.close();
    return;
  }
  if (message.type === 'drop') {
    const key = Buffer.from(message.seed).toString('hex');
    const vm = vms.get(key);
    if (vm !== undefined) {
      native.release(vm);
      vms.delete(key);
    }
    return;
  }
  try {
    const vm = vmFor(message.seed);
    if (message.type === 'prepare') {
      parentPort.postMessage({ id: message.id });
      return;
    }
    const hash = native.hash(vm, message.blob);
    parentPort.postMessage({ id: message.id, hash });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});

parentPort.postMessage({ ready: true });
