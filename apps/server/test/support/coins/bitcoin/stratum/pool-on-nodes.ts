// Test harness for node faults: a real pool (startStratum, PostgreSQL) on one or more node
// endpoints of a dev chain, with a short silence limit, plus a miner that keeps submitting.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { algorithmOf } from '@manjam/protocol';
import {
  ChainNode,
  NodeSet,
  TemplateWatcher,
  type RpcEndpoint,
} from '../../../../../src/coins/bitcoin/node/index.js';
import { createChainSource, type ChainSource } from '../../../../../src/coins/bitcoin/chain-source.js';
import { parseConfig } from '../../../../../src/config/index.js';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import { openTestDatabase, type TestDatabase } from '../../../db.js';
import type { DevChain } from '../../../../../src/coins/bitcoin/devchain/index.js';
import { PoolEvents } from '../../../../../src/events.js';
import type { SourceAvailability } from '../../../../../src/coins/bitcoin/source.js';
import { startStratum, type StratumService } from '../../../../../src/stratum/index.js';
import { StratumTestClient, type ClientJob, type Reply } from './client.js';
import { testLogger } from './harness.js';
import { chainOfSources } from '../../../../../src/coins/bitcoin/family.js';

export interface PoolOnNodes {
  coin: BitcoinFamilyCoin;
  database: TestDatabase;
  events: PoolEvents;
  stratum: StratumService;
  source: ChainSource;
  nodes: NodeSet;
  watcher: TemplateWatcher;
  port: number;
  login: string;
  close(): Promise<void>;
}

export async function startPoolOnNodes(options: {
  coin: BitcoinFamilyCoin;
  chain: DevChain;
  endpoints: RpcEndpoint[];
  silenceMs: number;
  difficulty: number;
}): Promise<PoolOnNodes> {
  const { coin, chain } = options;
  const dataDir = await mkdtemp(join(tmpdir(), 'manjam-nodes-'));
  const database = await openTestDatabase('postgres');
  const vardiff = { start: options.difficulty, min: options.difficulty, max: 1e12 };
  const config = parseConfig({
    dataDir,
    chains: { [coin]: { network: 'regtest', poolAddress: chain.poolAddress } },
    stratum: { host: '127.0.0.1', ports: [{ port: 0, coin, vardiff }] },
  });
  const nodes = new NodeSet(
    options.endpoints.map((rpc) => new ChainNode({ coin, rpc, timeoutMs: 5_000 })),
    testLogger,
  );
  const watcher = new TemplateWatcher({
    node: nodes,
    logger: testLogger,
    pollIntervalMs: 100,
    silenceMs: options.silenceMs,
  });
  const source = createChainSource({
    coin,
    network: 'regtest',
    poolAddress: chain.poolAddress,
    node: nodes,
    watcher,
  });
  await watcher.start();
  const events = new PoolEvents();
  const stratum = await startStratum({
    config,
    db: database.db,
    logger: testLogger,
    events,
    chains: [chainOfSources([source])],
  });
  return {
    coin,
    database,
    events,
    stratum,
    source,
    nodes,
    watcher,
    port: stratum.ports()[0]?.port as number,
    login: `${chain.poolAddress}.rig`,
    async close() {
      await stratum.stop();
      source.close();
      await watcher.stop();
      nodes.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resolves with Date.now() at the next availability change to `up`. */
export function nextAvailability(pool: PoolOnNodes, up: boolean, timeoutMs = 60_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the coin did not go ${up ? 'up' : 'down'} in time`)),
      timeoutMs,
    );
    const off = pool.source.onAvailability((availability: SourceAvailability) => {
      if (availability.up !== up) return;
      clearTimeout(timer);
      off();
      resolve(Date.now());
    });
  });
}

/**
 * Every availability change from now on, with its time: `after(up, sinceMs)` resolves with the
 * first change to `up` at or after `sinceMs`, so a change that came before a fault (a slow answer
 * on a loaded machine) is not taken for the fault's.
 */
export function recordAvailability(pool: PoolOnNodes) {
  const changes: { up: boolean; at: number }[] = [];
  const waiting = new Set<() => void>();
  const off = pool.source.onAvailability((availability: SourceAvailability) => {
    changes.push({ up: availability.up, at: Date.now() });
    for (const wake of waiting) wake();
  });
  return {
    changes,
    stop: off,
    after(up: boolean, sinceMs: number, timeoutMs = 60_000): Promise<number> {
      return new Promise((resolve, reject) => {
        const look = (): boolean => {
          const found = changes.find((change) => change.up === up && change.at >= sinceMs);
          if (!found) return false;
          clearTimeout(timer);
          waiting.delete(wake);
          resolve(found.at);
          return true;
        };
        const wake = (): void => void look();
        const timer = setTimeout(() => {
          waiting.delete(wake);
          reject(new Error(`the coin did not go ${up ? 'up' : 'down'} in time: ${JSON.stringify(changes)}`));
        }, timeoutMs);
        if (!look()) waiting.add(wake);
      });
    },
  };
}

/** Resolves with Date.now() when the pool sends out a clean job (clean_jobs=true). */
export function nextCleanJob(pool: PoolOnNodes, timeoutMs = 60_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no clean job in time')), timeoutMs);
    const off = pool.events.on('template.new', (event) => {
      if (!event.newTip) return;
      clearTimeout(timer);
      off();
      resolve(Date.now());
    });
  });
}

/** A subscribed and authorized miner with its first job. */
export async function connectMiner(
  pool: PoolOnNodes,
): Promise<{ client: StratumTestClient; job: ClientJob }> {
  const client = await StratumTestClient.connect(pool.port);
  await client.subscribe();
  const authorized = await client.authorize(pool.login);
  if (authorized.result !== true) throw new Error(`authorize refused: ${JSON.stringify(authorized.error)}`);
  return { client, job: await client.waitForJob() };
}

/** A share on the miner's latest job that is not a block (blocks would move the tip). */
export function shareOn(pool: PoolOnNodes, client: StratumTestClient) {
  const job = client.job as ClientJob;
  return client.findShare(job, algorithmOf(pool.coin), {
    accept: (b, j) => b.hashValue > j.template.networkTarget,
  });
}

export interface SubmitRecord {
  at: number;
  reply: Reply | null;
}

/** Submits a share every `everyMs` until the connection closes; resolves with every answer. */
export async function keepSubmitting(
  pool: PoolOnNodes,
  client: StratumTestClient,
  everyMs = 50,
): Promise<SubmitRecord[]> {
  const records: SubmitRecord[] = [];
  while (!client.closed) {
    const share = shareOn(pool, client);
    const reply = await client.submit(pool.login, share).catch(() => null);
    records.push({ at: Date.now(), reply });
    await delay(everyMs);
  }
  return records;
}

/** Shares stored for the coin with created_at in [from, to). */
export async function sharesStoredBetween(pool: PoolOnNodes, from: number, to: number): Promise<number> {
  const result = await pool.database.db.query<{ n: string }>(
    'SELECT COALESCE(sum(share_count), 0) AS n FROM shares WHERE coin = $1 AND created_at >= $2 AND created_at < $3',
    [pool.coin, new Date(from), new Date(to)],
  );
  return Number(result.rows[0]?.n ?? 0);
}
