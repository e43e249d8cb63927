// One thread of the V2 handshake pool (handshake-pool.ts): answers each act one it is sent with
// act two and the session's keys (NoiseResponder.actOneKeys), so the ElligatorSwift and ECDH work
// of a handshake never runs on the event loop that answers miners.
import { parentPort } from 'node:worker_threads';
import { NoiseResponder } from '@manjam/protocol/sv2';
import type { HandshakeAnswer, HandshakeRequest } from './handshake-pool.js';

const port = parentPort;
if (!port) throw new Error('handshake-worker runs as a worker thread');

port.on('message', (request: HandshakeRequest) => {
  let answer: HandshakeAnswer;
  try {
    const answered = new NoiseResponder(request.identity).actOneKeys(request.actOne);
    answer = answered.ok
      ? { id: request.id, ok: true, reply: answered.reply, keys: answered.keys }
      : { id: request.id, ok: false, error: answered.error.code };
  } catch (error) {
    answer = { id: request.id, ok: false, error: error instanceof Error ? error.message : 'failed' };
  }
  port.postMessage(answer);
});

// Loaded: the pool may send handshakes without waiting for this thread's start.
port.postMessage({ ready: true });
