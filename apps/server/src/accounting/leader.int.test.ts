import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { startWatched, waitUntil, type WatchedProcess } from '../../test/support/processes.js';
import { createUserMiner, insertShare, type MinerFixture } from '../../test/support/accounting/fixtures.js';

const CHILD = fileURLToPath(new URL('../../test/support/accounting/accounting-child.ts', import.meta.url));
const TAKEOVER_WITHIN_MS = 10_000;

/** The last {"credited":N} a child printed (0 before any). */
function creditedBy(child: WatchedProcess): number {
  const counts = [...child.output().matchAll(/\{"credited":(\d+)\}/g)];
  return Number(counts.at(-1)?.[1] ?? 0);
}

describe('accounting runs in one process at a time (PostgreSQL advisory lock)', () => {
  let database: TestDatabase;
  let miner: MinerFixture;
  const children: WatchedProcess[] = [];
  const startChild = (): WatchedProcess => {
    const spec = { coin: 'BTC', databaseUrl: database.url, schema: database.schema };
    const child = startWatched(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...process.env, MANJAM_ACCOUNTING_CHILD: JSON.stringify(spec) },
    });
    children.push(child);
    return child;
  };
  const addShares = async (n: number): Promise<void> => {
    for (let i = 0; i < n; i++) {
      await insertShare(database.db, 'BTC', miner, {
        difficulty: 1,
        networkDifficulty: 1_000,
        height: 100,
        scheme: 'pps-plus',
        at: new Date(),
      });
    }
  };
  const uncredited = async (): Promise<number> => {
    const result = await database.db.query<{ n: bigint }>(
      'SELECT count(*)::bigint AS n FROM shares WHERE NOT credited',
    );
    return Number(result.rows[0]?.n ?? -1n);
  };

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    miner = await createUserMiner(database.db, 'BTC');
  });
  afterAll(async () => {
    for (const child of children) child.child.kill('SIGKILL');
    await database.drop();
  });

  it('has a second accounting process stand by, credit nothing, and take over within seconds when the first is killed', async () => {
    const first = startChild();
    await first.waitFor(/holding the accounting lock/, 30_000);
    const second = startChild();
    await second.waitFor(/another accounting process holds the lock; standing by/, 30_000);

    await addShares(40);
    await waitUntil(async () => (await uncredited()) === 0, 20_000, 'the first 40 shares credited');
    await waitUntil(() => creditedBy(first) === 40, 5_000, 'the leader reports its credits');
    expect(creditedBy(second)).toBe(0);

    first.child.kill('SIGKILL');
    await first.exited;
    const seconds = await waitUntil(
      () => /took over the accounting lock/.test(second.output()),
      TAKEOVER_WITHIN_MS,
      'the standby takes over',
    );
    expect(seconds).toBeLessThan(TAKEOVER_WITHIN_MS / 1000);

    await addShares(25);
    await waitUntil(async () => (await uncredited()) === 0, 20_000, 'the next 25 shares credited');
    await waitUntil(() => creditedBy(second) === 25, 5_000, 'the new leader reports its credits');
    // Each share was credited by exactly one process: 40 by the first, 25 by the second, 65 in all.
    const credited = await database.db.query<{ n: bigint }>(
      'SELECT count(*)::bigint AS n FROM shares WHERE credited',
    );
    expect(Number(credited.rows[0]?.n)).toBe(65);
    expect(creditedBy(first) + creditedBy(second)).toBe(65);
  });

  it('has a leader whose database session is cut stop accounting, stand by, and lead again once it holds the lock', async () => {
    const leader = children.find(
      (c) => c.child.exitCode === null && /took over the accounting lock/.test(c.output()),
    );
    if (!leader) throw new Error('no leader left from the first test');
    await database.db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted
       AND objid = (hashtext(current_schema() || ':accounting')::bigint & 4294967295)::oid`,
    );
    await leader.waitFor(/lost the accounting lock/, 15_000);
    await waitUntil(
      () =>
        (leader.output().match(/took over the accounting lock|holding the accounting lock/g) ?? []).length >=
        2,
      15_000,
      'the lock held again',
    );
    await addShares(5);
    await waitUntil(
      async () => (await uncredited()) === 0,
      20_000,
      'shares credited after the session came back',
    );
  });
});
