// The Kaspa family's Stratum ports (kHeavyHash, the Kaspa dialects) on the shared kit: the kit's
// share writer (journal before `true`), LoginResolver, ban list, extranonce allocator and the
// coin's hashrate tracker. KAS is not in the coin table yet: this file is the one place its id
// meets the shared CoinId-typed kit (asCoin below); the wiring's coin-table row removes the cast.
import type { KaspaNetwork } from '@manjam/protocol/kaspa';
import type { CoinId, PayoutScheme, StratumPortConfig } from '../../../config/index.js';
import type { MinerRef } from '../../../shares/types.js';
import { hashrateOf, type StratumKit } from '../../../stratum/kit.js';
import type { FamilyPorts } from '../../family.js';
import type { KaspaTemplateSource } from '../template-source.js';
import { KaspaStratumServer } from './server.js';
import { KAS, type KaspaMinerRef, type KaspaShareSink } from './types.js';

/** KAS as the kit's CoinId (until the coin-table row: see the top comment). */
const asCoin = (coin: string): CoinId => coin as CoinId;
const asMiner = (miner: KaspaMinerRef): MinerRef => ({ ...miner, coin: asCoin(miner.coin) });

/** What the ports need of the family's chain. */
export interface KaspaPortsChain {
  source: KaspaTemplateSource;
  network: KaspaNetwork;
  /** The config network the LoginResolver checks addresses for (its Network). */
  configNetwork: 'mainnet' | 'testnet' | 'regtest';
}

/** The kit's ShareSink seen with KAS miners. */
export function kaspaSinkOf(kit: StratumKit): KaspaShareSink {
  const writer = kit.writer;
  return {
    addAccepted: (share, socket) => writer.addAccepted({ ...share, miner: asMiner(share.miner) }, socket),
    addRejected: (miner, reason, atMs) => writer.addRejected(asMiner(miner), reason, atMs),
    addBlock: (block) => writer.addBlock({ ...block, miner: asMiner(block.miner) }),
    refusal: () => writer.refusal(),
  };
}

export async function openKaspaPorts(
  kit: StratumKit,
  chain: KaspaPortsChain,
  ports: readonly Pick<
    StratumPortConfig,
    'port' | 'scheme' | 'vardiff' | 'tls'
  >[] = kit.config.stratum.ports.filter((p) => p.coin === asCoin(KAS)),
): Promise<FamilyPorts> {
  const opened: { port: number; scheme: PayoutScheme; server: KaspaStratumServer }[] = [];
  const coin = asCoin(KAS);
  const sink = kaspaSinkOf(kit);
  try {
    for (const p of ports) {
      const server = new KaspaStratumServer({
        port: p.port,
        host: kit.config.stratum.host,
        ...(p.tls ? { tls: p.tls } : {}),
        network: chain.network,
        scheme: p.scheme,
        vardiff: p.vardiff,
        stratum: kit.config.stratum,
        source: chain.source,
        sink,
        logger: kit.logger,
        bans: kit.bans,
        allocator: kit.allocator,
        pool: {
          resolveAccount: (login) => kit.resolver.resolve(login, coin, { network: chain.configNetwork }),
          hashrate: hashrateOf(kit, coin),
          workerChanged: (state, miner, login) => {
            const identity = miner.identity;
            kit.events.emit(state === 'connected' ? 'worker.connected' : 'worker.disconnected', {
              coin,
              workerId: null,
              userId: identity.kind === 'user' ? identity.userId : null,
              login,
            });
          },
        },
      });
      const port = await server.listen();
      server.server.maxConnections = kit.maxConnectionsPerPort;
      opened.push({ port, scheme: p.scheme, server });
      kit.logger.info(
        { coin: KAS, port, tls: server.tls, scheme: p.scheme },
        'stratum port listening (kHeavyHash)',
      );
    }
  } catch (error) {
    await Promise.all(opened.map((o) => o.server.close()));
    throw error;
  }
  return {
    ports: () => opened.map(({ port, scheme, server }) => ({ coin, port, tls: server.tls, scheme })),
    stats: () => {
      const rejected: Record<string, number> = {};
      let connections = 0;
      let accepted = 0;
      for (const { server } of opened) {
        connections += server.connections;
        accepted += server.stats.accepted;
        for (const [kind, count] of Object.entries(server.stats.rejected))
          rejected[kind] = (rejected[kind] ?? 0) + count;
      }
      return { connections, accepted, rejected };
    },
    // Each port follows the template source from the moment it listens.
    start: () => undefined,
    close: async () => {
      await Promise.all(opened.map((o) => o.server.close()));
    },
    release: () => Promise.resolve(),
  };
}
