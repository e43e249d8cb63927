// The XMR port in the pool: the XMRig-dialect server on the configured port (1111 by default),
// hashing with a RandomX worker-thread pool, writing shares through the process's ShareSink
// (journal: a share is durable before its OK), logins through the pool's LoginResolver. Each new
// template's reward is recorded for PPS credits (template_rewards: the first template of a height
// sets it, see the REWARD RULE in template-source.ts) and each new tip for /api/pool/stats.
//
// RandomX memory (randomx-seeds.ts): in light mode nothing is built at start; the caches are built
// when a miner logs in and released (threads stopped) once no XMR miner has been logged in for
// chains.XMR.randomxIdleReleaseSeconds. Full mode keeps its datasets: built at start and at each
// epoch as before, because a 2 GiB dataset takes 40 s to 2 min to build, every share would wait
// that long after an idle spell, and an operator who chose full mode has set the memory aside.
import { availableParallelism } from 'node:os';
import { RandomXPool, type RandomXFigures } from '@manjam/randomx';
import { moneroNetworkOf } from '@manjam/protocol/monero';
import type { Logger } from 'pino';
import type { Config, StratumPortConfig } from '../../../config/index.js';
import type { Database } from '../../../db/index.js';
import { ChainTipsRepository, TemplateRewardsRepository } from '../../../db/repositories/chain-tips.js';
import type { PoolEvents } from '../../../events.js';
import type { MoneroWork } from '../chain.js';
import type { HashrateTracker } from '../../../shares/hashrate.js';
import type { ShareSink } from '../../../shares/sink.js';
import type { LoginResolver } from '../../../stratum/auth.js';
import type { BanList } from '../../../stratum/bans.js';
import type { ExtranonceAllocator } from '../../../stratum/extranonce.js';
import { MoneroStratumServer, XMR } from './server.js';
import type { MoneroTemplate } from './template-source.js';

/** Share-checking threads when chains.XMR.randomxThreads is unset: the cores, at most 4 (light mode, ~280 MiB per seed). */
const MAX_DEFAULT_THREADS = 4;

export interface MoneroPortDeps {
  config: Config;
  port: StratumPortConfig;
  chain: MoneroWork;
  db: Database;
  logger: Logger;
  events: PoolEvents;
  sink: ShareSink;
  resolver: LoginResolver;
  hashrate: HashrateTracker;
  /** The process's ban list and extranonce allocator (one per process, every port). */
  bans: BanList;
  allocator: ExtranonceAllocator;
}

export interface MoneroPort {
  port: number;
  server: MoneroStratumServer;
  /** The port's RandomX pool now (queue, hashes, seeds held and building, threads): /metrics. */
  randomx(): RandomXFigures;
  close(): Promise<void>;
}

export async function startMoneroPort(deps: MoneroPortDeps): Promise<MoneroPort> {
  const { config, port, chain, db, logger } = deps;
  const xmr = config.chains.XMR;
  const randomx = new RandomXPool({
    threads: xmr.randomxThreads ?? Math.min(MAX_DEFAULT_THREADS, availableParallelism()),
    mode: xmr.randomxMode,
    ...(xmr.randomxMode === 'light'
      ? {
          idleReleaseMs: xmr.randomxIdleReleaseSeconds * 1000,
          onIdleRelease: (seeds: readonly string[]) =>
            logger.info(
              { seeds, idleSeconds: xmr.randomxIdleReleaseSeconds },
              'no XMR miner logged in: RandomX caches released, hashing threads stopped',
            ),
        }
      : {}),
  });
  const tips = new ChainTipsRepository(db);
  const rewards = new TemplateRewardsRepository(db);
  // Each height's PPS reward (XMR credits) and each new tip (height, network difficulty for the
  // pool stats). A height recorded before (by an earlier process) keeps its reward, and the tip's
  // templates adopt it, so a block found on them splits its fees against the credited value.
  const recordTemplate = async (template: MoneroTemplate): Promise<void> => {
    const [recorded] = await Promise.all([
      rewards.record(XMR, template.height, template.tip.ppsReward),
      template.newTip
        ? tips.upsert({
            coin: XMR,
            height: template.height - 1,
            hash: template.prevHash,
            networkDifficulty: Number(template.networkDifficulty),
          })
        : undefined,
    ]);
    if (recorded !== template.tip.ppsReward) {
      logger.info(
        { height: template.height, recorded: String(recorded), template: String(template.tip.ppsReward) },
        'XMR height reward recorded earlier: kept',
      );
      template.tip.ppsReward = recorded;
    }
  };
  chain.source.onTemplate((template) => {
    deps.events.emit('template.new', { coin: XMR, height: template.height, newTip: template.newTip });
    recordTemplate(template).catch((error: unknown) =>
      logger.error(
        { err: error, height: template.height },
        'could not record the XMR template reward and tip',
      ),
    );
  });
  const server = new MoneroStratumServer({
    port: port.port,
    host: config.stratum.host,
    ...(port.tls ? { tls: port.tls } : {}),
    network: moneroNetworkOf(chain.network),
    scheme: port.scheme,
    vardiff: port.vardiff,
    stratum: config.stratum,
    source: chain.source,
    randomx,
    sink: deps.sink,
    logger,
    bans: deps.bans,
    allocator: deps.allocator,
    pool: {
      resolveAccount: (login) => deps.resolver.resolve(login, XMR, { network: chain.network }),
      owners: deps.resolver.owners,
      hashrate: deps.hashrate,
      events: deps.events,
    },
  });
  try {
    const current = chain.source.current;
    // The first template came before this listener: record it too (its reward, and its tip, so
    // the pool stats show XMR's network difficulty from the start).
    if (current) await recordTemplate(current);
    // Full mode (a pool that keeps its caches): the dataset is built before the port opens.
    if (current && randomx.wanted) await randomx.prepare(current.seedHash);
    const listening = await server.listen();
    return {
      port: listening,
      server,
      randomx: () => randomx.figures(),
      async close() {
        await server.close();
        await randomx.close();
      },
    };
  } catch (error) {
    await server.close();
    await randomx.close();
    throw error;
  }
}
