import { describe, expect, it } from 'vitest';
import type { FamilyFigure } from '../coins/family.js';
import { MetricsRegistry } from './metrics.js';
import { registerStratumMetrics } from './metrics-stratum.js';

const counters = {
  connections: () => 3,
  sharesByResult: () => ({ accepted: 4, stale: 1 }),
  bans: () => ({ connection: 1, ip: 0 }),
  sharesUnstored: () => 7,
};

async function scrape(figures: FamilyFigure[]): Promise<string[]> {
  const metrics = new MetricsRegistry();
  registerStratumMetrics(metrics, { ...counters, figures: () => figures });
  return (await metrics.render()).split('\n').filter((line) => !line.startsWith('#'));
}

describe('the Stratum lines of /metrics', () => {
  it("shows each family's figures on their own lines, V2 counts summed and RandomX pools by port", async () => {
    const lines = await scrape([
      { name: 'manjam_stratum_v2_connections', labels: {}, value: 2 },
      { name: 'manjam_stratum_v2_channels', labels: {}, value: 5 },
      { name: 'manjam_stratum_v2_faults_total', labels: { kind: 'handshake' }, value: 1 },
      { name: 'manjam_stratum_v2_faults_total', labels: { kind: 'bad-frame' }, value: 2 },
      ...[1111, 1112].flatMap((port) =>
        [
          'manjam_randomx_hash_queue',
          'manjam_randomx_hashes_total',
          'manjam_randomx_seeds',
          'manjam_randomx_seeds_building',
          'manjam_randomx_threads',
        ].map((name) => ({ name, labels: { port: String(port) }, value: port - 1110 })),
      ),
    ]);
    expect(lines.slice(0, lines.indexOf('manjam_randomx_threads{port="1112"} 2') + 1)).toEqual([
      'manjam_stratum_connections 3',
      'manjam_stratum_shares_total{result="accepted"} 4',
      'manjam_stratum_shares_total{result="stale"} 1',
      'manjam_stratum_v2_connections 2',
      'manjam_stratum_v2_faults_total{kind="handshake"} 1',
      'manjam_stratum_v2_faults_total{kind="bad-frame"} 2',
      'manjam_stratum_v2_channels 5',
      'manjam_stratum_bans_total{scope="connection"} 1',
      'manjam_stratum_bans_total{scope="ip"} 0',
      'manjam_shares_unstored 7',
      'manjam_randomx_hash_queue{port="1111"} 1',
      'manjam_randomx_hash_queue{port="1112"} 2',
      'manjam_randomx_hashes_total{port="1111"} 1',
      'manjam_randomx_hashes_total{port="1112"} 2',
      'manjam_randomx_seeds{port="1111"} 1',
      'manjam_randomx_seeds{port="1112"} 2',
      'manjam_randomx_seeds_building{port="1111"} 1',
      'manjam_randomx_seeds_building{port="1112"} 2',
      'manjam_randomx_threads{port="1111"} 1',
      'manjam_randomx_threads{port="1112"} 2',
    ]);
  });

  it('shows V2 counts of 0 and no RandomX pool when no family reports them', async () => {
    const lines = await scrape([]);
    expect(lines).toContain('manjam_stratum_v2_connections 0');
    expect(lines).toContain('manjam_stratum_v2_channels 0');
    expect(lines.filter((line) => line.startsWith('manjam_randomx_'))).toEqual([]);
  });
});
