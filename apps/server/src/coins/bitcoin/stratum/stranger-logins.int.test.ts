// Issue 25, item 3, over real sockets: anyone may authorize "bob.<anything>" on a Stratum port
// (a login needs no credential), so a login writes nothing into bob's account. Bob sees his own
// connected worker at once (live, from the session), its row is written with its first accepted
// share, a worker he deleted stays deleted through logins and rejects, and the public lookup of his
// payout address never shows a name a stranger logged in with. A real pool on a bcoin regtest node
// and PostgreSQL, the API on the same database and the same pool events (as in one process).
import type { MinerLookup, WorkerList } from '@manjam/contract';
import { algorithmOf } from '@manjam/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/db.js';
import { type DevChain } from '../devchain/index.js';
import { startBtcTestChain } from '../../../../test/support/devchain/snapshot.js';
import { startTestApi, type TestApi } from '../../../../test/support/http.js';
import { StratumTestClient } from '../../../../test/support/coins/bitcoin/stratum/client.js';
import {
  startPoolOnChain,
  testLogger,
  type PoolOnChain,
} from '../../../../test/support/coins/bitcoin/stratum/harness.js';

const BOB_PAYOUT = 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn';
/** Stranger logins in this test: 40 connections of 25 (the port allows 32 logins a connection). */
const CONNECTIONS = 40;
const LOGINS_EACH = 25;
const SHARE_DIFFICULTY = 3e-10;

describe('a login under an account writes nothing into it; its own accepted shares do', () => {
  let chain: DevChain;
  let database: TestDatabase;
  let pool: PoolOnChain | undefined;
  let api: TestApi;
  let bob: Awaited<ReturnType<TestApi['signUp']>>;
  const clients: StratumTestClient[] = [];

  const connect = async (): Promise<StratumTestClient> => {
    const client = await StratumTestClient.connect(pool?.ports[0] as number);
    clients.push(client);
    return client;
  };
  const bobsRows = async (): Promise<{ name: string; hidden: boolean; accepted: number }[]> =>
    (
      await database.db.query<{ name: string; hidden: boolean; accepted: number }>(
        `SELECT w.name, w.hidden_at IS NOT NULL AS hidden, w.accepted_shares::int AS accepted
           FROM workers w JOIN payees p ON p.id = w.payee_id WHERE p.user_id = $1 ORDER BY w.name`,
        [bob.id],
      )
    ).rows;
  const listed = async (search?: string): Promise<WorkerList> => {
    api.clock.now = Date.now();
    const query = search === undefined ? '' : `?search=${search}`;
    return (await api.request('GET', `/api/workers${query}`, { token: bob.token })).json as WorkerList;
  };
  const publicNames = async (): Promise<string[]> => {
    const res = await api.request('GET', `/api/miners/lookup/${BOB_PAYOUT}`);
    return (res.json as MinerLookup).miners.map((m) => m.name);
  };
  /** A real share on the current job, submitted under `login`; answers the pool's reply. */
  const mineOne = async (client: StratumTestClient, login: string) => {
    const job = await client.waitForJob();
    return client.submit(login, client.findShare(job, algorithmOf('BTC')));
  };

  beforeAll(async () => {
    chain = await startBtcTestChain({ logger: testLogger });
    database = await openTestDatabase('postgres');
    api = await startTestApi(database.db);
    bob = await api.signUp('bob');
    const set = await api.request('PUT', '/api/settings/payout-address', {
      token: bob.token,
      body: { address: BOB_PAYOUT, coin: 'BTC', password: bob.password },
    });
    expect(set.status).toBe(200);
    pool = await startPoolOnChain({ coin: 'BTC', chain, database, ports: [{ start: SHARE_DIFFICULTY }] });
    // One process: the API hears the Stratum ports' events.
    for (const name of ['worker.connected', 'worker.disconnected'] as const)
      pool.events.on(name, (e) => api.events.emit(name, e));
    pool.events.on('shares.flushed', (e) => api.events.emit('shares.flushed', e));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await pool?.close();
    await api?.close();
    await chain?.stop();
    await database?.drop();
  });

  it('writes no row for 1,000 stranger logins and their rejected shares, shows them to the owner only while connected, and never publicly', async () => {
    const strangers = await Promise.all(Array.from({ length: CONNECTIONS }, () => connect()));
    const replies = await Promise.all(
      strangers.flatMap((client, c) =>
        Array.from({ length: LOGINS_EACH }, (_, i) => client.authorize(`bob.planted${c}x${i}`)),
      ),
    );
    expect(replies.filter((r) => r.result === true)).toHaveLength(CONNECTIONS * LOGINS_EACH);
    // Garbage under a planted name: a rejected share (job not found), counted against no row.
    const sender = strangers[0] as StratumTestClient;
    expect((await sender.subscribe()).error).toBeNull();
    const rejected = await sender.request('mining.submit', [
      'bob.planted0x0',
      'ffffffff',
      '00000000',
      '00000000',
      '00000000',
    ]);
    expect(rejected.error?.[0]).toBe(21);

    expect(await bobsRows()).toEqual([]);
    // The owner sees who is logged in under his name, live, capped, none of it stored.
    const page = await listed();
    expect(page.total).toBe(100);
    expect(
      page.workers.every((w: { id: unknown; status: string }) => w.id === null && w.status === 'connected'),
    ).toBe(true);
    expect(await publicNames()).toEqual([]);

    await Promise.all(strangers.map((c) => c.close()));
    await expect.poll(async () => (await listed()).total, { timeout: 10_000 }).toBe(0);
    expect(await bobsRows()).toEqual([]);
  });

  it("shows the owner's worker as connected before its first share and stores it with its first accepted share", async () => {
    const rig = await connect();
    expect((await rig.subscribe()).error).toBeNull();
    expect((await rig.authorize('bob.rig1')).result).toBe(true);
    expect((await listed('rig1')).workers).toEqual([
      expect.objectContaining({ id: null, name: 'rig1', status: 'connected', shares: 0, lastSeen: null }),
    ]);
    expect(await bobsRows()).toEqual([]);

    expect((await mineOne(rig, 'bob.rig1')).result).toBe(true);
    await expect.poll(bobsRows, { timeout: 20_000 }).toEqual([{ name: 'rig1', hidden: false, accepted: 1 }]);
    await expect
      .poll(async () => (await listed('rig1')).workers.map((w) => [typeof w.id, w.name, w.shares]), {
        timeout: 20_000,
      })
      .toEqual([['number', 'rig1', 1]]);
    expect(await publicNames()).toEqual(['rig1']);
    await rig.close();
  });

  it('keeps a deleted worker deleted through a login and rejected shares, and brings it back with an accepted share', async () => {
    const stored = (await listed('rig1')).workers[0];
    expect(typeof stored?.id).toBe('number');
    expect(
      (await api.request('DELETE', `/api/workers/${String(stored?.id)}`, { token: bob.token })).status,
    ).toBe(204);
    expect((await listed('rig1')).workers).toEqual([]);

    const rig = await connect();
    expect((await rig.subscribe()).error).toBeNull();
    expect((await rig.authorize('bob.rig1')).result).toBe(true);
    const bad = await rig.request('mining.submit', [
      'bob.rig1',
      'ffffffff',
      '00000000',
      '00000000',
      '00000000',
    ]);
    expect(bad.error?.[0]).toBe(21);
    // Connected, but deleted: not listed, and the row stays hidden.
    expect((await listed('rig1')).workers).toEqual([]);
    expect(await bobsRows()).toEqual([{ name: 'rig1', hidden: true, accepted: 1 }]);

    expect((await mineOne(rig, 'bob.rig1')).result).toBe(true);
    await expect.poll(bobsRows, { timeout: 20_000 }).toEqual([{ name: 'rig1', hidden: false, accepted: 2 }]);
    await expect
      .poll(async () => (await listed('rig1')).workers, { timeout: 20_000 })
      .toEqual([expect.objectContaining({ id: stored?.id, name: 'rig1', shares: 2 })]);
    await rig.close();
  });

  it('has written, once the pool stopped and flushed every count, only the worker that earned', async () => {
    await pool?.close();
    pool = undefined;
    expect(await bobsRows()).toEqual([{ name: 'rig1', hidden: false, accepted: 2 }]);
    expect(await publicNames()).toEqual(['rig1']);
  });
});
