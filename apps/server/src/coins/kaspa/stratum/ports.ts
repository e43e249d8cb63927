// The Kaspa family's Stratum ports (kHeavyHash, the Kaspa dialects) on the shared kit: the kit's
// share writer (journal before `true`), LoginResolver, ban list, extranonce allocator and the
// coin's hashrate tracker.
import { algorithmOf } from '@manjam/protocol';
import { bytesToHex, type KaspaNetwork } from '@manjam/protocol/kaspa';
import type { PayoutScheme, StratumPortConfig } from '../../../config/index.js';
import { ChainTipsRepository, TemplateRewardsRepository } from '../../../db/repositories/chain-tips.js';
import { ExtranonceAllocator } from '../../../stratum/extranonce.js';
import { hashrateOf, type StratumKit } from '../../../stratum/kit.js';
import { listenerFigures, seatLimits, seatPort } from '../../../stratum/listener.js';
import { portFigures } from '../../../stratum/share-book.js';
import type { FamilyPorts } from '../../family.js';
import type { KaspaTemplate, KaspaWorkSource } from '../template-source.js';
import { KaspaStratumServer } from './server.js';
import { KASPA_EXTRANONCE_BYTES } from './session.js';
import { KAS } from './types.js';

/** What the ports need of the family's chain. */
export interface KaspaPortsChain {
  source: KaspaWorkSource;
  network: KaspaNetwork;
  /** The config network the LoginResolver checks addresses for (its Network). */
  configNetwork: 'mainnet' | 'testnet' | 'regtest';
}

export async function openKaspaPorts(
  kit: StratumKit,
  chain: KaspaPortsChain,
  ports: readonly Pick<
    StratumPortConfig,
    'port' | 'scheme' | 'vardiff' | 'tls'
  >[] = kit.config.stratum.ports.filter((p) => p.coin === KAS),
): Promise<FamilyPorts> {
  const opened: { port: number; scheme: PayoutScheme; server: KaspaStratumServer }[] = [];
  const coin = KAS;
  const stopRecording = recordTemplates(kit, chain.source);
  // One KAS extranonce space for the process's KAS ports: they mine the same templates.
  const extranonces = new ExtranonceAllocator(
    undefined,
    kit.config.stratum.instanceId,
    KASPA_EXTRANONCE_BYTES,
  );
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
        sink: kit.writer,
        logger: kit.logger,
        bans: kit.bans,
        allocator: kit.allocator,
        extranonces,
        pool: {
          resolveAccount: (login) => kit.resolver.resolve(login, coin, { network: chain.configNetwork }),
          owners: kit.resolver.owners,
          hashrate: hashrateOf(kit, coin),
          workerChanged: (state, miner, login, agent) => {
            // A stranger's login under someone's worker is not shown to that account (strangers.ts).
            const owners = kit.resolver.owners;
            if (state === 'disconnected' ? !owners.showDisconnected(miner) : !owners.showConnected(miner))
              return;
            const identity = miner.identity;
            const userId = identity.kind === 'user' ? identity.userId : null;
            const base = { coin, workerId: null, userId, login } as const;
            if (state === 'disconnected') kit.events.emit('worker.disconnected', base);
            else
              kit.events.emit('worker.connected', {
                ...base,
                payeeKey: miner.payeeKey,
                worker: miner.worker,
                agent,
              });
          },
        },
      });
      const port = await server.listen();
      seatPort(server.server, seatLimits(kit.config.stratum, kit.maxConnectionsPerPort));
      opened.push({ port, scheme: p.scheme, server });
      kit.logger.info(
        { coin: KAS, port, tls: server.tls, scheme: p.scheme },
        'stratum port listening (kHeavyHash)',
      );
    }
  } catch (error) {
    stopRecording();
    await Promise.all(opened.map((o) => o.server.close()));
    throw error;
  }
  return {
    ports: () =>
      opened.map(({ port, scheme, server }) => ({
        coin,
        port,
        tls: server.tls,
        scheme,
        protocol: 'v1' as const,
        ...listenerFigures(server.server, algorithmOf(coin)),
      })),
    stats: () => portFigures(opened.map(({ server }) => server)),
    // Each port follows the template source from the moment it listens.
    start: () => undefined,
    close: async () => {
      stopRecording();
      await Promise.all(opened.map((o) => o.server.close()));
    },
    release: () => Promise.resolve(),
  };
}

/**
 * Each DAA score's PPS value (template_rewards: the first template's subsidy at that score is
 * kept, so shares credited at it and a block found on a later template agree) and the tip the
 * pool stats show (chain_tips: network difficulty), as templates come. Answers the unsubscribe.
 */
function recordTemplates(kit: StratumKit, source: KaspaWorkSource): () => void {
  const rewards = new TemplateRewardsRepository(kit.db);
  const tips = new ChainTipsRepository(kit.db);
  const record = (template: KaspaTemplate): void => {
    const height = Number(template.daaScore);
    kit.events.emit('template.new', { coin: KAS, height, newTip: template.newParents });
    const parent = template.header.parents[0]?.[0];
    Promise.all([
      rewards.record(KAS, height, template.subsidy),
      template.newParents && parent
        ? tips.upsert({
            coin: KAS,
            height: height - 1,
            hash: bytesToHex(parent),
            networkDifficulty: template.networkDifficulty,
          })
        : undefined,
    ]).catch((error: unknown) =>
      kit.logger.error({ err: error, coin: KAS, height }, 'could not record the KAS template reward and tip'),
    );
  };
  // The source's first template came before the ports opened.
  if (source.current) record(source.current);
  return source.onTemplate(record);
}
