// Load measurement for the Stratum server (run with tsx; prints figures, asserts nothing):
//   tsx apps/server/src/stratum/testing/load.ts <BTC|LTC> <connections> <shares/s or 0 = as fast as possible> <seconds>
// Starts the pool in a child process on a frozen template (2,000 transactions, a target no share
// meets) backed by PostgreSQL, opens the connections from this process, precomputes valid shares
// at the lowest share difficulty, submits them and reports accepted shares/s and submit-to-reply
// latency (p50/p99), plus the server's CPU time and memory per connection.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { algorithmOf, type BitcoinFamilyCoin } from '@manjam/protocol';
import { StratumTestClient, type FoundShare } from './client.js';

const WINDOW = 16;

/** Sends `shares` in pipelined windows; reports each answer (accepted or not) with its window's latency. */
function blast(
  client: StratumTestClient,
  shares: FoundShare[],
  login: string,
  deadline: number,
  report: (ok: boolean, ms: number) => void,
): Promise<void> {
  const socket = client.socket;
  socket.removeAllListeners('data');
  const lines = shares.map(
    (sh, i) =>
      `{"id":${i + 10},"method":"mining.submit","params":["${login}","${sh.job.id}","${sh.extranonce2}","${sh.ntime}","${sh.nonce}"]}\n`,
  );
  let next = 0;
  let waiting = 0;
  let sentAt = 0;
  return new Promise((resolve) => {
    const send = () => {
      if (next >= lines.length || Date.now() >= deadline) return resolve();
      const end = Math.min(lines.length, next + WINDOW);
      waiting = end - next;
      sentAt = performance.now();
      socket.write(lines.slice(next, end).join(''));
      next = end;
    };
    socket.on('data', (text: string) => {
      let from = 0;
      for (;;) {
        const nl = text.indexOf('\n', from);
        if (nl === -1) break;
        report(text.startsWith('true', text.indexOf('"result":', from) + 9), performance.now() - sentAt);
        from = nl + 1;
        if (--waiting === 0) send();
      }
    });
    socket.on('close', () => resolve());
    send();
  });
}

interface Options {
  coin: BitcoinFamilyCoin;
  connections: number;
  rate: number;
  seconds: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

async function startServer(coin: BitcoinFamilyCoin): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(fileURLToPath(new URL('./load-server.ts', import.meta.url)), [coin], {
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.LOAD_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.LOAD_CPU_PROF}`] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.on('error', () => undefined);
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`load server exited ${code}`)));
  });
  return { child, port };
}

function ask<T>(child: ChildProcess, what: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(what);
  });
}

export const LOAD_LOGIN: Record<BitcoinFamilyCoin, string> = {
  BTC: 'rb1qzyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg328fddy.load',
  LTC: 'rltc1qxvenxvenxvenxvenxvenxvenxvenxvenuxr9sr.load',
};

async function connectAll(
  port: number,
  count: number,
  coin: BitcoinFamilyCoin,
): Promise<StratumTestClient[]> {
  const clients: StratumTestClient[] = [];
  for (let i = 0; i < count; i += 200) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(200, count - i) }, () => StratumTestClient.connect(port)),
    );
    await Promise.all(
      batch.map(async (c) => {
        await c.subscribe();
        await c.authorize(LOAD_LOGIN[coin]);
        await c.waitForJob();
      }),
    );
    clients.push(...batch);
  }
  return clients;
}

async function run(options: Options): Promise<void> {
  const algorithm = algorithmOf(options.coin);
  const progress = (what: string) => process.stderr.write(`[load] ${what}\n`);
  const { child, port } = await startServer(options.coin);
  progress(`server on port ${port}`);
  const idle = await ask<{ cpu: number; rss: number }>(child, 'usage');
  const clients = await connectAll(port, options.connections, options.coin);
  const connected = await ask<{ cpu: number; rss: number }>(child, 'usage');
  progress(`${clients.length} connections`);
  const most = algorithm === 'scrypt' ? 10_000 : 55_000;
  const perClient = Math.ceil(
    (options.rate > 0 ? options.rate * options.seconds : most * options.seconds) / clients.length,
  );
  const queues: FoundShare[][] = clients.map((c) =>
    Array.from({ length: perClient }, (_, n) => c.findShare(c.job!, algorithm, { extranonce2: n })),
  );
  progress(`${perClient * clients.length} shares ready`);
  const latencies: number[] = [];
  let accepted = 0;
  let rejected = 0;
  const cpuBefore = await ask<{ cpu: number; rss: number }>(child, 'usage');
  const started = Date.now();
  const deadline = started + options.seconds * 1000;
  const submitOne = async (client: StratumTestClient, share: FoundShare) => {
    const t = performance.now();
    const reply = await client.submit(LOAD_LOGIN[options.coin], share).catch(() => undefined);
    latencies.push(performance.now() - t);
    if (reply?.result === true) accepted++;
    else rejected++;
  };
  if (options.rate > 0) {
    const intervalMs = 10;
    const perTick = (options.rate * intervalMs) / 1000;
    let owed = 0;
    let next = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (Date.now() >= deadline) return (clearInterval(timer), resolve());
        owed += perTick;
        for (; owed >= 1; owed--, next++) {
          const c = next % clients.length;
          const share = queues[c]!.pop();
          if (share) void submitOne(clients[c]!, share);
        }
      }, intervalMs);
    });
  } else {
    // As fast as possible: each connection pipelines windows of requests and counts the answers
    // without parsing them, so the generator costs far less than the server.
    await Promise.all(
      clients.map((client, c) =>
        blast(client, queues[c]!, LOAD_LOGIN[options.coin], deadline, (ok, ms) => {
          if (ok) accepted++;
          else rejected++;
          latencies.push(ms);
        }),
      ),
    );
  }
  const elapsed = (Date.now() - started) / 1000;
  const cpuAfter = await ask<{ cpu: number; rss: number }>(child, 'usage');
  latencies.sort((a, b) => a - b);
  const line = {
    coin: options.coin,
    connections: clients.length,
    offered: options.rate || 'max',
    seconds: elapsed.toFixed(1),
    acceptedPerSecond: Math.round(accepted / elapsed),
    rejected,
    p50ms: percentile(latencies, 50).toFixed(2),
    p99ms: percentile(latencies, 99).toFixed(2),
    acceptedPerServerCpuSecond: Math.round(accepted / ((cpuAfter.cpu - cpuBefore.cpu) / 1e6)),
    serverCpuPercent: (((cpuAfter.cpu - cpuBefore.cpu) / 1e6 / elapsed) * 100).toFixed(0),
    serverRssMiB: (cpuAfter.rss / 2 ** 20).toFixed(0),
    kibPerConnection: ((connected.rss - idle.rss) / 1024 / clients.length).toFixed(1),
  };
  process.stdout.write(JSON.stringify(line) + '\n');
  await Promise.all(clients.map((c) => c.close()));
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

const [coinArg, connections, rate, seconds] = process.argv.slice(2);
if (coinArg === 'BTC' || coinArg === 'LTC') {
  await run({
    coin: coinArg,
    connections: Number(connections ?? 1000),
    rate: Number(rate ?? 0),
    seconds: Number(seconds ?? 10),
  });
}
