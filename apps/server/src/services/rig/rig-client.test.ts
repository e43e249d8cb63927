import { describe, expect, it } from 'vitest';
import { rigWorkerToMiner } from './rig-client.js';

describe('rig-management worker mapping', () => {
  const now = Date.parse('2026-11-22T08:00:00Z');

  it('maps an online rig to an active miner with its GPUs, hashrates from kH/s to H/s, lastSeen now', () => {
    const miner = rigWorkerToMiner(
      {
        id: 5,
        name: 'rig-5',
        stats: { online: true },
        hashrates: [{ algo: 'kawpow', hash: 30_000 }],
        flight_sheet: { items: [{ coin: 'RVN', wallet_address: 'RAddr' }] },
        gpu_stats: [{ name: 'RX 6600', hash: 30_000, temp: 61 }, { hash: 1 }],
      },
      now,
    );
    expect(miner).toEqual({
      id: 'hive-5',
      name: 'rig-5',
      algorithm: 'kawpow',
      status: 'active',
      hashrate: 30_000_000,
      shares: { accepted: 0, rejected: 0, stale: 0 },
      earnings: { daily: '0', weekly: '0', monthly: '0' },
      coin: 'RVN',
      lastSeen: '2026-11-22T08:00:00.000Z',
      source: 'hive',
      gpus: [
        { name: 'RX 6600', hashrate: 30_000_000, temperature: 61 },
        { name: 'GPU', hashrate: 1000, temperature: null },
      ],
    });
  });

  it('maps an offline rig to inactive with its offline time as lastSeen', () => {
    const miner = rigWorkerToMiner(
      { id: 'x', name: 'off', stats: { online: false }, offline_since: 1_700_000_000 },
      now,
    );
    expect(miner).toMatchObject({
      status: 'inactive',
      hashrate: 0,
      lastSeen: '2023-11-14T22:13:20.000Z',
      gpus: [],
      algorithm: 'unknown',
    });
  });
});
