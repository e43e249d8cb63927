// The pool the drill's cap phases attack (edge-caps.ts): one real `manjam start --role all`
// process (Stratum and API in one) on a bcoin regtest dev chain and a fresh PostgreSQL schema,
// with a BTC V1 port, a BTC Stratum V2 port and, when asked, a KAS port (the pool starts its own
// kaspad simnet dev chain). Account bob exists (payout address set); honest miners measured here
// mine real shares at the drill difficulty and time each answer.
import { schnorr } from '@noble/curves/secp256k1.js';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { algorithmOf } from '@manjam/protocol';
import { kaspaShareTarget } from '@manjam/protocol/kaspa';
import { decodeAuthoritySecretKey } from '@manjam/protocol/sv2';
import { pino } from 'pino';
import { startBtcDevChain, type DevChain } from '../../apps/server/src/coins/bitcoin/devchain/index.js';
import { AUTHORITY_KEY_FILE } from '../../apps/server/src/coins/bitcoin/stratum-v2/authority.js';
import { PayoutSettingsRepository } from '../../apps/server/src/db/repositories/payout-settings.js';
import { freePort } from '../../apps/server/src/devchain/child.js';
import { StratumTestClient } from '../../apps/server/test/support/coins/bitcoin/stratum/client.js';
import { KaspaTestMiner } from '../../apps/server/test/support/coins/kaspa/stratum/miner.js';
import { FixtureWriter } from '../../apps/server/test/support/db/fixtures.js';
import {
  processConfig,
  schemaUrl,
  startPoolProcess,
  type PoolProcess,
} from '../../apps/server/test/support/pool-processes.js';
import { POSTGRES_URL, openBenchDatabase, type BenchDatabase } from './database.js';
import { DRILL_DIFFICULTY } from './drill-pool.js';
import { int, ms, percentile } from './report.js';

export const BOB_PAYOUT = 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn';
/**
 * 3/4 of the simnet network's difficulty (2^-31 in Kaspa's units, standalone.ts's figure): a sixth
 * of kHeavyHash tries are shares that are not blocks, the only ones the Kaspa miner sends (a
 * block would move the chain and make the pool's answer wait on kaspad).
 */
const KAS_NETWORK_DIFFICULTY = 2 ** -31;
const KAS_DIFFICULTY = 0.75 * KAS_NETWORK_DIFFICULTY;
/** An answer later than this is counted lost. */
const ANSWER_TIMEOUT_MS = 5_000;

export const sleep = (msToWait: number): Promise<void> => new Promise((done) => setTimeout(done, msToWait));

/** Resolves with `work`'s value, or undefined after `timeoutMs`. */
export async function within<T>(work: Promise<T>, timeoutMs: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((done) => {
    timer = setTimeout(() => done(undefined), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface CapsPool {
  process: PoolProcess;
  chain: DevChain;
  database: BenchDatabase;
  bob: number;
  v1: number;
  v2: number;
  kas: number | undefined;
  web: string;
  /** The V2 port's authority public key (x-only). */
  authority: Uint8Array;
  /** Stops the pool with SIGTERM (counts flushed) and waits for it; idempotent. */
  stopPool(): Promise<void>;
  close(): Promise<void>;
}

export async function startCapsPool(options: {
  kas?: boolean;
  stratum?: Record<string, unknown>;
  http?: Record<string, unknown>;
}): Promise<CapsPool> {
  const chain = await startBtcDevChain({ logger: pino({ level: 'warn' }) });
  const dataDir = await mkdtemp(join(tmpdir(), 'manjam-edge-caps-'));
  const database = await openBenchDatabase('postgres');
  let process: PoolProcess | undefined;
  try {
    const bob = await new FixtureWriter(database.db).user({ username: 'bob' });
    await new PayoutSettingsRepository(database.db).setAddress(bob, 'BTC', BOB_PAYOUT, null);
    const v1 = await freePort();
    const v2 = await freePort();
    const kas = options.kas ? await freePort() : undefined;
    const difficulty = DRILL_DIFFICULTY.BTC;
    const config = processConfig({
      coin: 'BTC',
      node: chain,
      databaseUrl: schemaUrl(POSTGRES_URL, database.schema ?? ''),
      dataDir,
      stratumPort: v1,
      difficulty,
    });
    const fixedDifficulty = (d: number) => ({ start: d, min: d, max: d, retargetSeconds: 86_400 });
    const stratum = config.stratum as { ports: unknown[] } & Record<string, unknown>;
    stratum.ports.push({ port: v2, coin: 'BTC', protocol: 'v2', vardiff: fixedDifficulty(difficulty) });
    if (kas !== undefined) {
      stratum.ports.push({ port: kas, coin: 'KAS', vardiff: fixedDifficulty(KAS_DIFFICULTY) });
      (config.chains as Record<string, unknown>).KAS = { binDir: resolve('.tools/go/bin') };
    }
    Object.assign(stratum, options.stratum ?? {});
    if (options.http) Object.assign(config.http as Record<string, unknown>, options.http);
    process = await startPoolProcess('all', config, 600_000);
    const secret = decodeAuthoritySecretKey(await readFile(join(dataDir, AUTHORITY_KEY_FILE), 'utf8'));
    if (!secret) throw new Error('no V2 authority key in the data directory');
    let stopped: Promise<void> | undefined;
    const running = process;
    const stopPool = (): Promise<void> => {
      stopped ??= (async () => {
        running.child.kill('SIGTERM');
        await running.exited;
      })();
      return stopped;
    };
    return {
      process,
      chain,
      database,
      bob,
      v1,
      v2,
      kas,
      web: process.webUrl,
      authority: schnorr.getPublicKey(secret),
      stopPool,
      async close() {
        await stopPool();
        await database.close();
        await chain.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (process) {
      process.child.kill('SIGTERM');
      await process.exited;
    }
    await database.close();
    await chain.stop();
    throw error;
  }
}

/** What an honest miner saw over a round: answers, acceptances and their round trips. */
export interface Figures {
  sent: number;
  answered: number;
  accepted: number;
  latencies: number[];
}

export function figuresLine(f: Figures): string {
  const sorted = Float64Array.from(f.latencies).sort();
  return (
    `${int(f.answered)} of ${int(f.sent)} answered (${int(f.accepted)} accepted), ` +
    `p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}`
  );
}

export function p99(f: Figures): number {
  return percentile(Float64Array.from(f.latencies).sort(), 99);
}

/** The ratio of two p99s, as "x2.1". */
export function ratio(attack: Figures, quiet: Figures): string {
  const q = p99(quiet);
  return q > 0 ? `x${(p99(attack) / q).toFixed(1)}` : 'x?';
}

/** An honest miner: paced real shares, each answer timed (later than 5 s: lost). */
export interface Prober {
  round(seconds: number, paceMs?: number): Promise<Figures>;
  close(): void | Promise<void>;
}

/** A V1 miner on the BTC port, from `localAddress`. */
export async function v1Prober(port: number, login: string, localAddress: string): Promise<Prober> {
  const client = await StratumTestClient.connect(port, { localAddress });
  await client.subscribe();
  const reply = await client.authorize(login);
  if (reply.result !== true) throw new Error(`${login} was not authorized: ${JSON.stringify(reply)}`);
  await client.waitForJob();
  return {
    async round(seconds, paceMs = 100) {
      const f: Figures = { sent: 0, answered: 0, accepted: 0, latencies: [] };
      const end = Date.now() + seconds * 1000;
      while (Date.now() < end) {
        const job = await within(client.waitForJob(), ANSWER_TIMEOUT_MS);
        f.sent++;
        if (!job) {
          await sleep(paceMs);
          continue;
        }
        const share = client.findShare(job, algorithmOf('BTC'), {
          accept: (b, j) => b.hashValue > j.template.networkTarget,
        });
        const started = performance.now();
        const answer = await within(client.submit(login, share), ANSWER_TIMEOUT_MS);
        if (answer) {
          f.answered++;
          f.latencies.push(performance.now() - started);
          if (answer.result === true) f.accepted++;
        }
        await sleep(paceMs);
      }
      return f;
    },
    close: () => client.close(),
  };
}

/** A Kaspa miner on the KAS port (an account login: `bob.<worker>`). */
export async function kasProber(port: number, login: string): Promise<Prober> {
  const miner = await KaspaTestMiner.connect(port);
  await miner.request('mining.subscribe', ['bench-miner/1.0', 'EthereumStratum/1.0.0']);
  const reply = await miner.request('mining.authorize', [login, 'x']);
  if (reply.result !== true) throw new Error(`${login} was not authorized: ${JSON.stringify(reply)}`);
  await miner.jobCount(1, 120_000);
  const kasNetworkTarget = kaspaShareTarget(KAS_NETWORK_DIFFICULTY);
  return {
    async round(seconds, paceMs = 100) {
      const f: Figures = { sent: 0, answered: 0, accepted: 0, latencies: [] };
      const end = Date.now() + seconds * 1000;
      while (Date.now() < end) {
        const job = miner.jobs[miner.jobs.length - 1];
        f.sent++;
        if (!job || miner.closed) {
          await sleep(paceMs);
          continue;
        }
        let nonce: string;
        try {
          nonce = miner.find(job, (pow, target) => pow <= target && pow > kasNetworkTarget);
        } catch {
          // No share within the tries (the announced difficulty moved): counted as sent, unanswered.
          await sleep(paceMs);
          continue;
        }
        const started = performance.now();
        const answer = await within(miner.submit(login, job, nonce), ANSWER_TIMEOUT_MS);
        if (answer) {
          f.answered++;
          f.latencies.push(performance.now() - started);
          if (answer.result === true) f.accepted++;
        }
        await sleep(paceMs);
      }
      return f;
    },
    close: () => miner.close(),
  };
}

/** GET `path` from `localAddress`: the milliseconds to a 2xx answer, undefined when none within `timeoutMs`. */
export function probeHttp(
  base: string,
  path: string,
  localAddress: string,
  timeoutMs = 2_000,
): Promise<number | undefined> {
  const started = performance.now();
  return new Promise((done) => {
    const request = http.get(new URL(path, base), { localAddress, timeout: timeoutMs }, (response) => {
      response.resume();
      response.on('end', () => {
        const ok = (response.statusCode ?? 0) >= 200 && (response.statusCode ?? 0) < 300;
        done(ok ? performance.now() - started : undefined);
      });
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => done(undefined));
  });
}

/** /api/health probes every `everyMs` for `seconds`, each from the next fresh loopback address. */
export async function healthRound(base: string, seconds: number, everyMs = 500): Promise<Figures> {
  const f: Figures = { sent: 0, answered: 0, accepted: 0, latencies: [] };
  const end = Date.now() + seconds * 1000;
  let next = 0;
  while (Date.now() < end) {
    const from = `127.0.${200 + Math.floor(next / 250)}.${1 + (next % 250)}`;
    next++;
    f.sent++;
    const took = await probeHttp(base, '/api/health', from);
    if (took !== undefined) {
      f.answered++;
      f.accepted++;
      f.latencies.push(took);
    }
    await sleep(everyMs);
  }
  return f;
}
