// The Stratum V2 ports' figures of a running pool, read from the figures the Bitcoin family
// reports (what /metrics and /api/health show of them).
import { figureTotal } from '../../../../../src/coins/family.js';
import type { StratumService } from '../../../../../src/stratum/index.js';

export interface V2Figures {
  /** Open V2 connections (also in the pool's connections). */
  connections: number;
  /** Mining channels open on them. */
  channels: number;
  /** Connections closed for what they sent, by kind. */
  faults: Record<string, number>;
}

export function v2Figures(stratum: Pick<StratumService, 'figures'>): V2Figures {
  const figures = stratum.figures();
  const faults: Record<string, number> = {};
  for (const { name, labels, value } of figures) {
    const kind = labels.kind;
    if (name === 'manjam_stratum_v2_faults_total' && kind !== undefined)
      faults[kind] = (faults[kind] ?? 0) + value;
  }
  return {
    connections: figureTotal(figures, 'manjam_stratum_v2_connections'),
    channels: figureTotal(figures, 'manjam_stratum_v2_channels'),
    faults,
  };
}
