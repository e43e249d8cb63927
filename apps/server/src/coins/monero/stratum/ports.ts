// The Monero family's Stratum ports (XMRig's dialect, RandomX) on the shared kit.
import { algorithmOf } from '@manjam/protocol';
import type { PayoutScheme } from '../../../config/index.js';
import { hashrateOf, type StratumKit } from '../../../stratum/kit.js';
import { listenerFigures, seatLimits, seatPort } from '../../../stratum/listener.js';
import { portFigures } from '../../../stratum/share-book.js';
import type { RandomXFigures } from '@manjam/randomx';
import type { FamilyFigure, FamilyPorts } from '../../family.js';
import type { MoneroWork } from '../chain.js';
import { startMoneroPort, type MoneroPort } from './start.js';

export async function openMoneroPorts(kit: StratumKit, chain: MoneroWork): Promise<FamilyPorts> {
  const opened: { port: number; scheme: PayoutScheme; xmr: MoneroPort }[] = [];
  try {
    for (const p of kit.config.stratum.ports.filter((p) => p.coin === chain.coin)) {
      const xmr = await startMoneroPort({
        config: kit.config,
        port: p,
        chain,
        db: kit.db,
        logger: kit.logger,
        events: kit.events,
        sink: kit.writer,
        resolver: kit.resolver,
        hashrate: hashrateOf(kit, chain.coin),
        bans: kit.bans,
        allocator: kit.allocator,
      });
      seatPort(xmr.server.server, seatLimits(kit.config.stratum, kit.maxConnectionsPerPort));
      opened.push({ port: xmr.port, scheme: p.scheme, xmr });
      kit.logger.info(
        { coin: chain.coin, port: xmr.port, tls: xmr.server.tls, scheme: p.scheme },
        'stratum port listening (RandomX)',
      );
    }
  } catch (error) {
    await Promise.all(opened.map((m) => m.xmr.close()));
    throw error;
  }
  return {
    ports: () =>
      opened.map(({ port, scheme, xmr }) => ({
        coin: chain.coin,
        port,
        tls: xmr.server.tls,
        scheme,
        protocol: 'v1' as const,
        ...listenerFigures(xmr.server.server, algorithmOf(chain.coin)),
      })),
    stats: () => portFigures(opened.map(({ xmr }) => xmr.server)),
    figures: () => opened.flatMap(({ port, xmr }) => randomxFigures(port, xmr.randomx())),
    // Each port follows its template source from the moment it listens.
    start: () => undefined,
    close: async () => {
      await Promise.all(opened.map((m) => m.xmr.close()));
    },
    release: () => Promise.resolve(),
  };
}

/** Each figure of a port's RandomX pool, by the /metrics line it is shown on (http/metrics-stratum.ts). */
const RANDOMX_LINES: readonly [string, keyof RandomXFigures][] = [
  ['manjam_randomx_hash_queue', 'queued'],
  ['manjam_randomx_hashes_total', 'hashes'],
  ['manjam_randomx_seeds', 'seeds'],
  ['manjam_randomx_seeds_building', 'building'],
  ['manjam_randomx_threads', 'threads'],
];

/** A port's RandomX pool now (queue, hashes, seeds held and building, threads), labelled by port. */
function randomxFigures(port: number, figures: RandomXFigures): FamilyFigure[] {
  return RANDOMX_LINES.map(([name, figure]) => ({
    name,
    labels: { port: String(port) },
    value: figures[figure],
  }));
}
