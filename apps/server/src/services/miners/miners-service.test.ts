import { describe, expect, it } from 'vitest';
import type { UserWorkerRow } from '../../db/repositories/queries-activity.js';
import type { MinerRow } from '../../db/repositories/miners.js';
import type { WorkerActivity } from '../workers/workers-service.js';
import { joinLive } from './miners-service.js';

const SEEN = new Date('2026-11-25T12:00:00Z');

function worker(
  id: number,
  coin: 'BTC' | 'LTC',
  name: string,
  realtime: number,
  online = true,
): WorkerActivity {
  const row: UserWorkerRow = {
    id,
    payeeId: coin === 'BTC' ? 1 : 2,
    walletAddress: null,
    coin,
    name,
    displayName: null,
    type: 'asic',
    algorithm: coin === 'BTC' ? 'sha256d' : 'scrypt',
    lastShareAt: new Date(SEEN.getTime() - id * 60_000),
    acceptedShares: 10,
    rejectedShares: 0,
    staleShares: 0,
  };
  return {
    row,
    online,
    figures: {
      coin,
      realtime,
      hour: realtime,
      day: realtime,
      rejectRate: 0,
      countedUpTo: row.lastShareAt,
      averagedSeconds: { realtime: 600, hour: 3_600, day: 86_400 },
    },
  };
}

function miner(algorithm: string, workerName = 'rig1'): MinerRow {
  return { id: 7, userId: 1, name: 'My rig', type: 'asic', algorithm, workerName, createdAt: SEEN };
}

describe('a declared miner joined with its live workers', () => {
  // One user mines SHA-256 and Scrypt with two machines that share the worker name "rig1".
  const workers = [worker(1, 'BTC', 'rig1', 100e12), worker(2, 'LTC', 'RIG1', 2e9, false)];

  it('shows the SHA-256 rig at its SHA-256 hashrate only, never summed with the Scrypt rig of the same name', () => {
    expect(joinLive(miner('sha256'), workers)).toMatchObject({
      hashrate: 100e12,
      workers: 1,
      status: 'online',
      lastSeen: new Date(SEEN.getTime() - 60_000).toISOString(),
    });
  });

  it('shows the Scrypt rig with its own hashrate and status', () => {
    expect(joinLive(miner('scrypt'), workers)).toMatchObject({
      hashrate: 2e9,
      workers: 1,
      status: 'offline',
      lastSeen: new Date(SEEN.getTime() - 120_000).toISOString(),
    });
  });

  it('shows a miner of an algorithm the pool does not run as offline with no hashrate', () => {
    expect(joinLive(miner('kaspa'), workers)).toMatchObject({ hashrate: 0, workers: 0, status: 'offline' });
  });
});
