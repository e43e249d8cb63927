// Drill phase `proto`: a bystander's round trip on a V1 port while other connections flood it with
// methods named after members of Object.prototype (`__proto__`, `constructor`, `toString`).
// The pool runs in its own process (lib/pool-process.ts); the flooders run in a worker thread, so
// the bystander's clock is not slowed by the flood's reading.
import { Worker } from 'node:worker_threads';
import { StratumTestClient } from '../../apps/server/test/support/coins/bitcoin/stratum/client.js';
import { PoolHandle } from './pool-handle.js';
import { Report, fixed, int, load, percentile } from './report.js';

interface Options {
  seconds: number;
  flooders: number[];
}

function parse(argv: string[]): Options {
  const options: Options = { seconds: 10, flooders: [1, 4] };
  for (const arg of argv) {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    if (key === 'seconds') options.seconds = Math.max(1, Number(value));
    if (key === 'flooders')
      options.flooders = value
        .split(',')
        .map(Number)
        .filter((n) => n > 0);
  }
  return options;
}

/**
 * The flood, as plain JavaScript for an eval'd worker: each connection writes batches of 1,000
 * lines whenever the previous batch has drained, reads (and drops) every answer, and reconnects at
 * once when the pool closes it.
 */
const FLOOD = `
const net = require('node:net');
const { workerData, parentPort } = require('node:worker_threads');
const methods = ['__proto__', 'constructor', 'toString', 'mining.__proto__'];
let id = 0;
const batch = () => {
  let text = '';
  for (let i = 0; i < 1000; i++) text += JSON.stringify({ id: ++id, method: methods[i % 4], params: [] }) + '\\n';
  return text;
};
let answers = 0, closed = 0, stopped = false;
const sockets = new Set();
function open() {
  const socket = net.connect({ host: '127.0.0.1', port: workerData.port });
  sockets.add(socket);
  socket.on('data', (chunk) => { for (const b of chunk) if (b === 10) answers++; });
  socket.on('error', () => {});
  socket.on('close', () => {
    sockets.delete(socket);
    if (stopped) return;
    closed++;
    setImmediate(open); // the attacker comes straight back
  });
  const pump = () => { while (!socket.destroyed && socket.write(batch())); };
  socket.on('drain', pump);
  socket.on('connect', pump);
}
for (let c = 0; c < workerData.connections; c++) open();
parentPort.on('message', () => {
  stopped = true;
  for (const s of sockets) s.destroy();
  parentPort.postMessage({ answers, closed, sent: id });
});
`;

interface FloodResult {
  answers: number;
  closed: number;
  sent: number;
}

async function roundTrips(port: number, seconds: number): Promise<Float64Array> {
  const client = await StratumTestClient.connect(port);
  await client.subscribe('manjam-drill/1.0');
  const samples: number[] = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until && !client.closed) {
    const started = performance.now();
    await client.request('mining.extranonce.subscribe', []);
    samples.push(performance.now() - started);
  }
  client.socket.destroy();
  return Float64Array.from(samples).sort();
}

async function measure(report: Report, port: number, seconds: number, flooders: number): Promise<number> {
  let flood: Worker | undefined;
  if (flooders > 0) {
    flood = new Worker(FLOOD, { eval: true, workerData: { port, connections: flooders } });
    await new Promise((resolve) => setTimeout(resolve, 500)); // the flood reaches its pace
  }
  const samples = await roundTrips(port, seconds);
  let result: FloodResult | undefined;
  if (flood) {
    const running = flood;
    result = await new Promise<FloodResult>((resolve) => {
      running.once('message', resolve);
      running.postMessage('stop');
    });
    await running.terminate();
  }
  const p99 = percentile(samples, 99);
  report.line(
    `  ${flooders === 0 ? 'quiet' : `${flooders} flooding connection(s)`}: bystander ${int(samples.length)} round trips, ` +
      `p50 ${fixed(percentile(samples, 50), 2)} ms, p99 ${fixed(p99, 2)} ms, max ${fixed(samples[samples.length - 1] ?? NaN, 2)} ms` +
      (result
        ? `; flood lines sent ${int(result.sent)}, answered ${int(result.answers)}, closed by the pool (and reopened) ${int(result.closed)}`
        : ''),
  );
  return p99;
}

export async function runEdgeProto(report: Report, argv: string[]): Promise<void> {
  const options = parse(argv);
  report.line(`proto: a bystander's round trip (mining.extranonce.subscribe) on the BTC V1 port`);
  report.line(
    `  while connections pipeline __proto__/constructor/toString lines in batches of 1,000; ${options.seconds} s each; load ${load()}`,
  );
  const pool = await PoolHandle.start('pglite');
  try {
    const port = pool.ports.BTC;
    const quiet = await measure(report, port, options.seconds, 0);
    for (const flooders of options.flooders) {
      const p99 = await measure(report, port, options.seconds, flooders);
      report.line(`    p99 / quiet p99 = ${fixed(p99 / quiet, 2)} (target <= 2)`);
    }
  } finally {
    await pool.stop();
  }
}
