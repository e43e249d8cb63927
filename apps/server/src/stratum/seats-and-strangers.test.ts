// Over real sockets on a unit pool (a fake template source, the shared test database): a port
// filled by a few addresses still answers a new miner, a port filled to its cap makes room by
// closing an idle connection (never a mining one), and a stranger's login under someone's worker
// adds nothing to it.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PoolEventMap } from '../events.js';
import { StratumTestClient } from '../../test/support/coins/bitcoin/stratum/client.js';
import { BTC_REGTEST_ADDRESS as ADDRESS } from '../../test/support/coins/bitcoin/stratum/fake-source.js';
import {
  closeSharedDatabase,
  sharedDatabase,
  startUnitPool,
  type UnitPool,
} from '../../test/support/coins/bitcoin/stratum/unit-pool.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });
let pool: UnitPool | undefined;
const held: StratumTestClient[] = [];
beforeAll(async () => {
  await sharedDatabase();
});
afterEach(async () => {
  await Promise.all(held.splice(0).map((c) => c.close()));
  await pool?.close();
  pool = undefined;
});
afterAll(closeSharedDatabase);

/** An authorized idle login from `address`; undefined when the pool closed the connection unanswered. */
async function idleLogin(
  port: number,
  address: string,
  login: string,
): Promise<StratumTestClient | undefined> {
  const client = await StratumTestClient.connect(port, { localAddress: address });
  held.push(client);
  const answered = await Promise.race([
    (async () => {
      await client.subscribe();
      return (await client.authorize(login)).result === true;
    })().catch(() => false),
    client.closedPromise.then(() => false),
  ]);
  return answered ? client : undefined;
}

async function mineOne(client: StratumTestClient, login: string): Promise<unknown> {
  const job = await client.waitForJob();
  const share = client.findShare(job, 'sha256d', {
    accept: (b, j) => b.hashValue > j.template.networkTarget,
  });
  return (await client.submit(login, share)).result;
}

describe("a port's seats", () => {
  it('answers a new miner on a port that six addresses tried to fill, each held to its share', async () => {
    pool = await startUnitPool({ maxConnectionsPerPort: 64, seats: { perAddress: 8 } });
    const port = pool.port;
    const kept: number[] = [];
    for (let a = 0; a < 6; a++) {
      let logins = 0;
      for (let i = 0; i < 12; i++)
        if (await idleLogin(port, `127.0.0.${20 + a}`, `${ADDRESS}.f${a}x${i}`)) logins++;
      kept.push(logins);
    }
    expect(kept).toEqual([8, 8, 8, 8, 8, 8]);
    expect(await idleLogin(port, '127.0.0.60', `${ADDRESS}.newrig`)).toBeDefined();
  });

  it('makes room at the cap by closing the connection idle longest, never one sending valid shares', async () => {
    pool = await startUnitPool({ maxConnectionsPerPort: 4, seats: { perAddress: 4, idleSeconds: 10 } });
    const port = pool.port;
    const miner = (await idleLogin(port, '127.0.0.30', `${ADDRESS}.mining`)) as StratumTestClient;
    const idle = [];
    for (let i = 0; i < 3; i++) idle.push(await idleLogin(port, '127.0.0.31', `${ADDRESS}.idle${i}`));
    // Full, and every seat is younger than the window: the newcomer is refused.
    expect(await idleLogin(port, '127.0.0.32', `${ADDRESS}.early`)).toBeUndefined();
    const clock = Date.now();
    vi.useFakeTimers({ now: clock, toFake: ['Date'] });
    try {
      vi.setSystemTime(clock + 8_000);
      expect(await mineOne(miner, `${ADDRESS}.mining`)).toBe(true);
      vi.setSystemTime(clock + 12_000);
      expect(await idleLogin(port, '127.0.0.33', `${ADDRESS}.newrig`)).toBeDefined();
    } finally {
      vi.useRealTimers();
    }
    await idle[0]?.closedPromise;
    expect(idle.map((c) => c?.closed)).toEqual([true, false, false]);
    expect(miner.closed).toBe(false);
  });
});

describe("a stranger's login under someone's worker", () => {
  it('writes no reject and no presence into a worker that mines from another address', async () => {
    pool = await startUnitPool();
    const { port, events } = pool;
    const rig = `${ADDRESS}.victim${Date.now()}`;
    const seen: { name: keyof PoolEventMap; login: string }[] = [];
    events.on('worker.connected', (e) => void seen.push({ name: 'worker.connected', login: e.login }));
    events.on('worker.disconnected', (e) => void seen.push({ name: 'worker.disconnected', login: e.login }));
    const own = (await idleLogin(port, '127.0.0.1', rig)) as StratumTestClient;
    expect(await mineOne(own, rig)).toBe(true);

    const stranger = (await idleLogin(port, '127.0.0.2', rig)) as StratumTestClient;
    for (let i = 0; i < 20; i++)
      expect(
        (await stranger.request('mining.submit', [rig, 'ffffffff', '00000000', '00000000', '00000000']))
          .error?.[0],
      ).toBe(21);
    await stranger.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual([{ name: 'worker.connected', login: rig }]);
    // Refused and counted by the pool (and toward the stranger's bans), not written into rig1.
    const refused = Object.values(pool.stratum.stats().sharesRejected).reduce((sum, n) => sum + n, 0);
    expect(refused).toBe(20);
    // The rig's own miner is still the worker's: its shares and its own rejects are written.
    expect(await mineOne(own, rig)).toBe(true);
    await own.request('mining.submit', [rig, 'ffffffff', '00000000', '00000000', '00000000']);
    const db = pool.database.db;
    await pool.close();
    pool = undefined;
    const row = await db.query<{ accepted: number; rejected: number }>(
      `SELECT w.accepted_shares::int AS accepted, w.rejected_shares::int AS rejected
         FROM workers w JOIN payees p ON p.id = w.payee_id WHERE p.address = $1 AND w.name = $2`,
      [ADDRESS, rig.slice(ADDRESS.length + 1)],
    );
    expect(row.rows).toEqual([{ accepted: 2, rejected: 1 }]);
  });
});
