// The machine's floor for the kheavyhash phase: the least any Node Stratum server must do per
// Kaspa share, forked as its own process. It answers the load miners' login (subscribe,
// authorize, one extranonce, one job), then for each `mining.submit` line only: splits the line,
// finds the nonce, computes kHeavyHash (the pool's own fast path) and writes `true`, corked per
// chunk read. No JSON parse, no share book, no journal, no database. Its shares per CPU-second
// against raw hashing bound what the real pool can reach on this machine, whatever it does.
import net from 'node:net';
import { kaspaPowState, kaspaPowWordsOf } from '@manjam/protocol/kaspa';
import { SAMPLE_PRE_POW, SAMPLE_TIMESTAMP } from './kheavyhash-speed.js';

export type KheavyhashFloorMessage =
  { type: 'ready'; port: number } | { type: 'usage'; cpuUs: number; accepted: number };

const state = kaspaPowState(SAMPLE_PRE_POW, SAMPLE_TIMESTAMP);
const out = new Uint32Array(8);
const ID = /^\{"id":(\d+)/;
const NONCE = /"([0-9a-f]{16})"\]\}$/;
let accepted = 0;
let sessions = 0;

function answer(socket: net.Socket, line: string): void {
  const id = ID.exec(line)?.[1] ?? 'null';
  if (line.includes('"mining.submit"')) {
    const nonce = NONCE.exec(line)?.[1] ?? '0000000000000000';
    kaspaPowWordsOf(state, Number.parseInt(nonce.slice(8), 16), Number.parseInt(nonce.slice(0, 8), 16), out);
    accepted++;
    socket.write(`{"id":${id},"result":true,"error":null}\n`);
  } else if (line.includes('"mining.subscribe"')) {
    socket.write(`{"id":${id},"result":[true,"EthereumStratum/1.0.0"],"error":null}\n`);
  } else {
    const extranonce = (++sessions).toString(16).padStart(4, '0');
    socket.write(`{"id":${id},"result":true,"error":null}\n`);
    socket.write(`{"id":null,"method":"mining.set_extranonce","params":["${extranonce}",6]}\n`);
    socket.write(`{"id":null,"method":"mining.notify","params":["1",[1,2,3,4],1]}\n`);
  }
}

const server = net.createServer((socket) => {
  socket.setNoDelay(true);
  socket.setEncoding('utf8');
  socket.on('error', () => undefined);
  let buffer = '';
  socket.on('data', (text: string) => {
    buffer += text;
    socket.cork();
    for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
      answer(socket, buffer.slice(0, at));
      buffer = buffer.slice(at + 1);
    }
    socket.uncork();
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object')
    process.send?.({ type: 'ready', port: address.port } satisfies KheavyhashFloorMessage);
});
process.on('message', () => {
  // Every message asks for the usage so far.
  const cpu = process.cpuUsage();
  process.send?.({ type: 'usage', cpuUs: cpu.user + cpu.system, accepted } satisfies KheavyhashFloorMessage);
});
process.on('disconnect', () => process.exit(0));
