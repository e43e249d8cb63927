// Test harness: a real pool (startStratum) on a dev chain's node, through the chain module's
// ChainNode + TemplateWatcher (blocknotify, longpoll, poll) and chain-source.ts.
import dgram from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import {
  blocknotifyCommand,
  ChainNode,
  TemplateWatcher,
} from '../../../../../src/coins/bitcoin/node/index.js';
import { createChainSource, type ChainSource } from '../../../../../src/coins/bitcoin/chain-source.js';
import { parseConfig, type Config } from '../../../../../src/config/index.js';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import type { Database } from '../../../../../src/db/index.js';
import { openTestDatabase, type TestDatabase } from '../../../db.js';
import type { DevChain } from '../../../../../src/coins/bitcoin/devchain/index.js';
import { PoolEvents } from '../../../../../src/events.js';
import { startStratum, type StratumService } from '../../../../../src/stratum/index.js';
import { chainOfSources } from '../../../../../src/coins/bitcoin/family.js';

export const testLogger: Logger = pino({ level: process.env.MANJAM_TEST_LOG ?? 'silent' });

/** A free UDP port on 127.0.0.1 for blocknotify datagrams (known before the node starts). */
export async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

export function blocknotifyFor(port: number, coin: BitcoinFamilyCoin): string {
  return blocknotifyCommand(port, coin);
}

export interface PortSpec {
  start: number;
  min?: number;
  max?: number;
  scheme?: 'pps-plus' | 'pplns' | 'solo';
  targetSeconds?: number;
  retargetSeconds?: number;
  /** Certificate and key files: a TLS port. */
  tls?: { cert: string; key: string };
  /** A Stratum V2 port (coins/bitcoin/stratum-v2). */
  protocol?: 'v1' | 'v2';
}

export interface PoolOnChain {
  config: Config;
  db: Database;
  events: PoolEvents;
  stratum: StratumService;
  source: ChainSource;
  node: ChainNode;
  watcher: TemplateWatcher;
  /** Stratum port numbers in the order of the specs. */
  ports: number[];
  dataDir: string;
  close(): Promise<void>;
}

export async function startPoolOnChain(options: {
  coin: BitcoinFamilyCoin;
  chain: DevChain;
  blocknotifyPort?: number;
  ports: PortSpec[];
  stratum?: Record<string, unknown>;
  database?: TestDatabase;
}): Promise<PoolOnChain> {
  const { coin, chain } = options;
  const dataDir = await mkdtemp(join(tmpdir(), 'manjam-stratum-'));
  const database = options.database ?? (await openTestDatabase('pglite'));
  const config = parseConfig({
    dataDir,
    chains: { [coin]: { network: 'regtest', poolAddress: chain.poolAddress } },
    stratum: {
      host: '127.0.0.1',
      ports: options.ports.map((p) => ({
        port: 0,
        coin,
        scheme: p.scheme ?? 'pps-plus',
        vardiff: {
          start: p.start,
          min: p.min ?? p.start,
          max: p.max ?? 1e12,
          targetSeconds: p.targetSeconds ?? 15,
          retargetSeconds: p.retargetSeconds ?? 90,
          variancePercent: 30,
        },
        ...(p.tls ? { tls: p.tls } : {}),
        ...(p.protocol ? { protocol: p.protocol } : {}),
      })),
      ...options.stratum,
    },
  });
  const node = new ChainNode({ coin, rpc: chain.rpc });
  const watcher = new TemplateWatcher({
    node,
    logger: testLogger,
    pollIntervalMs: 100,
    longpoll: true,
    ...(options.blocknotifyPort !== undefined ? { blocknotifyPort: options.blocknotifyPort } : {}),
  });
  const source = createChainSource({
    coin,
    network: 'regtest',
    poolAddress: chain.poolAddress,
    node,
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
    config,
    db: database.db,
    events,
    stratum,
    source,
    node,
    watcher,
    dataDir,
    ports: stratum.ports().map((p) => p.port),
    async close() {
      await stratum.stop();
      source.close();
      await watcher.stop();
      node.rpc.close();
      if (!options.database) await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
