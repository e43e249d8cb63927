// Drill phase `sv2-pool`: the pool's Stratum V2 port against its V1 port, same pool, same bcoin
// regtest dev chain, same load. N miners on each (V2: one extended channel per connection),
// each with S valid shares found before the clock starts (none a block, so the tip stays put),
// all sent at once: shares/s until the last answer, this process's CPU per share, bytes on the
// wire per share (both directions, handshake and setup excluded) and per job (pool -> miner on
// one new tip), and new tip -> the last of N miners holding the new work (V2: SetNewPrevHash, V1:
// a clean mining.notify). Miners and pool share this one process: the CPU figure is both sides.
// Then (lib/edge-sv2-pool-tips.ts) new tip -> last of N with the miners in a process of their
// own, `--rounds=R` alternating rounds of `--tips=K` tips to N V2 channels then N V1 sessions;
// `--blast=0` runs that part alone.
import { schnorr } from '@noble/curves/secp256k1.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bitsToTarget } from '@manjam/protocol';
import { decodeAuthoritySecretKey } from '@manjam/protocol/sv2';
import { startBtcDevChain } from '../../apps/server/src/coins/bitcoin/devchain/index.js';
import { AUTHORITY_KEY_FILE } from '../../apps/server/src/coins/bitcoin/stratum-v2/authority.js';
import {
  findNonce,
  Sv2TestClient,
  type ChannelWork,
} from '../../apps/server/test/support/coins/bitcoin/stratum-v2/client.js';
import { u256ToTarget } from '../../apps/server/src/coins/bitcoin/stratum-v2/work.js';
import {
  StratumTestClient,
  type FoundShare,
} from '../../apps/server/test/support/coins/bitcoin/stratum/client.js';
import {
  startPoolOnChain,
  testLogger,
  type PoolOnChain,
} from '../../apps/server/test/support/coins/bitcoin/stratum/harness.js';
import { Report, fixed, int, load } from './report.js';
import { faultPhase } from './edge-sv2-pool-faults.js';
import { tipPhase } from './edge-sv2-pool-tips.js';
import { connectV2 } from './sv2-connect.js';

const DIFFICULTY = 3e-10;

function arg(argv: string[], name: string, fallback: number): number {
  const hit = argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.slice(name.length + 3)) : fallback;
}

interface Blast {
  shares: number;
  seconds: number;
  cpuUs: number;
  bytes: number;
}

async function measure(
  send: () => void,
  done: () => Promise<void>,
  bytes: () => number,
  shares: number,
): Promise<Blast> {
  const b0 = bytes();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  send();
  await done();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { shares, seconds, cpuUs: cpu.user + cpu.system, bytes: bytes() - b0 };
}

/** V2: N connections with one extended channel, S shares each. */
async function v2Phase(pool: PoolOnChain, authority: Uint8Array, n: number, s: number, address: string) {
  const miners: {
    client: Sv2TestClient;
    channelId: number;
    work: ChannelWork;
    extranonce: Buffer;
    prefix: Uint8Array;
  }[] = [];
  for (let i = 0; i < n; i++) {
    const client = await connectV2(pool.ports[1] as number, authority, i);
    await client.setup();
    const opened = await client.open('extended', `${address}.v2m${i}`);
    if (!opened.ok) throw new Error(opened.errorCode);
    miners.push({
      client,
      channelId: opened.channelId,
      work: await opened.work,
      extranonce: Buffer.alloc(opened.extranonceSize),
      prefix: opened.extranoncePrefix,
    });
  }
  const target = u256ToTarget(
    miners[0]!.client.messages.find((m) => m.type === 'OpenExtendedMiningChannelSuccess')!.target,
  );
  const batches = miners.map((m) => {
    const net = bitsToTarget(m.work.prevHash.nbits.toString(16).padStart(8, '0'));
    const out = [];
    let nonce = 0;
    for (let k = 0; k < s; k++) {
      const f = findNonce(
        m.work,
        { extranoncePrefix: m.prefix, extranonce: m.extranonce },
        (h) => h <= target && h > net,
        nonce,
      );
      nonce = f.nonce + 1;
      out.push(f);
    }
    return out;
  });
  const bytes = () => miners.reduce((t, m) => t + m.client.bytesIn + m.client.bytesOut, 0);
  const accepted = (m: Sv2TestClient) =>
    m.messages.reduce(
      (t, x) =>
        t +
        (x.type === 'SubmitSharesSuccess'
          ? x.newSubmitsAcceptedCount
          : x.type === 'SubmitSharesError'
            ? 1
            : 0),
      0,
    );
  const blast = await measure(
    () =>
      miners.forEach((m, i) =>
        batches[i]!.forEach((f, k) =>
          m.client.send({
            type: 'SubmitSharesExtended',
            channelId: m.channelId,
            sequenceNumber: k + 1,
            jobId: m.work.job.jobId,
            nonce: f.nonce,
            ntime: f.ntime,
            version: f.version,
            extranonce: m.extranonce,
          }),
        ),
      ),
    async () => {
      while (miners.some((m) => accepted(m.client) < s)) await new Promise((r) => setTimeout(r, 5));
    },
    bytes,
    n * s,
  );
  const refused = miners.reduce(
    (t, m) => t + m.client.messages.filter((x) => x.type === 'SubmitSharesError').length,
    0,
  );
  // One new tip: bytes pool -> miners, and when the last miner had SetNewPrevHash.
  const in0 = miners.reduce((t, m) => t + m.client.bytesIn, 0);
  const t0 = performance.now();
  const arrivals = miners.map((m) => m.client.work(m.channelId).then(() => performance.now() - t0));
  await pool.node.rpc.call<string[]>('generatetoaddress', [1, address]);
  const lastMs = Math.max(...(await Promise.all(arrivals)));
  await new Promise((r) => setTimeout(r, 300)); // the template after the coinbase-only job
  const jobBytes = (miners.reduce((t, m) => t + m.client.bytesIn, 0) - in0) / n;
  for (const m of miners) m.client.close();
  return { blast, refused, lastMs, jobBytes };
}

/** V1: N connections, subscribe + authorize, S shares each. */
async function v1Phase(pool: PoolOnChain, n: number, s: number, address: string) {
  const miners: { client: StratumTestClient; login: string; counted: { bytes: number } }[] = [];
  for (let i = 0; i < n; i++) {
    const client = await StratumTestClient.connect(pool.ports[0] as number);
    const counted = { bytes: 0 };
    client.socket.on('data', (d: Buffer | string) => (counted.bytes += Buffer.byteLength(d)));
    const write = client.socket.write.bind(client.socket);
    client.socket.write = (chunk: string | Buffer, ...rest: never[]) => {
      counted.bytes += Buffer.byteLength(chunk);
      return write(chunk, ...rest);
    };
    await client.subscribe();
    const login = `${address}.v1m${i}`;
    await client.authorize(login);
    await client.waitForJob();
    miners.push({ client, login, counted });
  }
  const batches: FoundShare[][] = miners.map((m) => {
    const job = m.client.job!;
    return Array.from({ length: s }, () =>
      m.client.findShare(job, 'sha256d', { accept: (b, j) => b.hashValue > j.template.networkTarget }),
    );
  });
  const bytes = () => miners.reduce((t, m) => t + m.counted.bytes, 0);
  let refused = 0;
  const replies: Promise<unknown>[] = [];
  const blast = await measure(
    () =>
      miners.forEach((m, i) =>
        batches[i]!.forEach((f) =>
          replies.push(
            m.client.submit(m.login, f).then((r) => {
              if (r.error) refused++;
            }),
          ),
        ),
      ),
    async () => void (await Promise.all(replies)),
    bytes,
    n * s,
  );
  const in0 = bytes();
  const t0 = performance.now();
  const arrivals = miners.map((m) => {
    const seen = m.client.jobs.length;
    return m.client
      .waitForJob((j) => m.client.jobs.indexOf(j) >= seen && j.clean)
      .then(() => performance.now() - t0);
  });
  await pool.node.rpc.call<string[]>('generatetoaddress', [1, address]);
  const lastMs = Math.max(...(await Promise.all(arrivals)));
  await new Promise((r) => setTimeout(r, 300));
  const jobBytes = (bytes() - in0) / n;
  await Promise.all(miners.map((m) => m.client.close()));
  return { blast, refused, lastMs, jobBytes };
}

export async function runEdgeSv2Pool(report: Report, argv: string[]): Promise<void> {
  const n = arg(argv, 'n', 100);
  const s = arg(argv, 'shares', 20);
  report.line(
    `== sv2-pool: Stratum V2 extended channels vs V1, one pool on bcoin regtest (${new Date().toISOString()}, load ${load()})`,
  );
  report.line(`   ${n} miners per dialect, ${s} shares each sent at once; miners and pool in one process`);
  const chain = await startBtcDevChain({ logger: testLogger });
  const settings = { start: DIFFICULTY, min: DIFFICULTY, max: DIFFICULTY, retargetSeconds: 86_400 };
  const pool = await startPoolOnChain({
    coin: 'BTC',
    chain,
    ports: [settings, { ...settings, protocol: 'v2' }],
    stratum: {
      maxConnectionsPerIp: 100_000,
      seats: { perAddress: 100_000 },
      v2: { handshakeTimeoutSeconds: 1 },
    },
  });
  try {
    const secret = decodeAuthoritySecretKey(await readFile(join(pool.dataDir, AUTHORITY_KEY_FILE), 'utf8'));
    const authority = schnorr.getPublicKey(secret!);
    if (arg(argv, 'blast', 1) !== 0) await blastPhase(report, pool, authority, n, s, argv, chain.poolAddress);
    await tipPhase(
      report,
      pool,
      authority,
      n,
      chain.poolAddress,
      arg(argv, 'rounds', 3),
      arg(argv, 'tips', 3),
    );
  } finally {
    await pool.close();
    await chain.stop();
  }
}

/** Shares/s, CPU and bytes per share and per job, new tip in-process; then the hostile connections. */
async function blastPhase(
  report: Report,
  pool: PoolOnChain,
  authority: Uint8Array,
  n: number,
  s: number,
  argv: string[],
  address: string,
): Promise<void> {
  const v2 = await v2Phase(pool, authority, n, s, address);
  const v1 = await v1Phase(pool, n, s, address);
  for (const [name, r] of [
    ['V2 extended', v2],
    ['V1', v1],
  ] as const) {
    const b = r.blast;
    report.line(
      `   ${name.padEnd(12)} ${int(b.shares / b.seconds)} shares/s (${int(b.shares)} in ${fixed(b.seconds, 2)} s, ${int(r.refused)} refused), ` +
        `${fixed(b.cpuUs / b.shares, 1)} us CPU/share, ${fixed(b.bytes / b.shares, 1)} B/share, ` +
        `${fixed(r.jobBytes, 0)} B/miner on a new tip, new tip -> last of ${n}: ${fixed(r.lastMs, 1)} ms`,
    );
  }
  report.line(
    `   hostile connections on the V2 port (${arg(argv, 'hostile', 50)} of each kind; handshake deadline 1 s):`,
  );
  await faultPhase(report, pool, authority, arg(argv, 'hostile', 50), address);
}
