/* eslint-disable @typescript-eslint/no-unsafe-member-access -- tests read JSON bodies field by field */
// Crediting a returned block's payees back from the operator console, on PGlite and PostgreSQL: a
// SOLO block credited at maturity, orphaned by a deep reorg (its credits reversed), back on the main
// chain (block-returned); the console credits its payees back exactly what was reversed, once
// under two requests at once, and the miner's balance follows on /api/me. The bookkeeping nets
// out when the chain moves again: confirmed once mature, reversed again if it leaves the chain,
// never credited a second time; `manjam block-recredit` refuses what the console refuses.
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertBlock, insertShare, type MinerFixture } from '../../test/support/accounting/fixtures.js';
import { MemoryChain } from '../../test/support/accounting/memory-chain.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';
import { signedInOperator } from '../../test/support/operator.js';
import { startAccounting, type AccountingService } from '../accounting/index.js';
import { parseConfig } from '../config/index.js';
import { parseDbCommand } from '../control/db-commands.js';
import { BlockLifecycleRepository } from '../db/repositories/block-lifecycle.js';
import { LedgerRepository } from '../db/repositories/ledger.js';
import { PoolEvents } from '../events.js';

const COIN = 'BTC';
/** Regtest BTC subsidy at heights 150-299 (50 BTC halved once). */
const SUBSIDY = 2_500_000_000n;
/** The SOLO finder's part: the subsidy less the pool's 1 % fee. */
const FINDER = 2_475_000_000n;
const logger = pino({ level: 'silent' });

describeEachDatabase('crediting a returned block back from the operator console', (getDb) => {
  const chain = new MemoryChain(200);
  let api: TestApi;
  let accounting: AccountingService;
  let token: string;
  beforeAll(async () => {
    api = await startTestApi(getDb());
    ({ token } = await signedInOperator(api, getDb()));
    accounting = await startAccounting({
      config: parseConfig({}),
      db: getDb(),
      logger,
      events: new PoolEvents(),
      chains: new Map([[COIN, chain]]),
      loop: false,
    });
  });
  afterAll(() => api.close());

  /** A signed-up miner with a BTC payee and a worker, as Stratum records a signed-in account's rig. */
  async function accountMiner() {
    const user = await api.signUp();
    const payee = await getDb().query<{ id: number }>(
      "INSERT INTO payees (coin, kind, user_id) VALUES ($1, 'user', $2) RETURNING id",
      [COIN, user.id],
    );
    const payeeId = payee.rows[0]?.id ?? 0;
    const worker = await getDb().query<{ id: number }>(
      "INSERT INTO workers (payee_id, coin, name, algorithm) VALUES ($1, $2, 'rig', 'sha256') RETURNING id",
      [payeeId, COIN],
    );
    const fixture: MinerFixture = { payeeId, workerId: worker.rows[0]?.id ?? 0, userId: user.id };
    return { user, fixture };
  }

  /** The miner's unpaid BTC balance as /api/me shows it (base units). */
  async function balanceSeen(miner: { id: number; token: string }): Promise<bigint> {
    api.forget(miner.id);
    const me = await api.request('GET', '/api/me', { token: miner.token });
    expect(me.status).toBe(200);
    const btc = (me.json.balances as { coin: string; amount: string }[]).find((b) => b.coin === COIN);
    return BigInt(btc?.amount ?? '0');
  }

  /** A SOLO block found by `miner`, credited at maturity, orphaned by a deep reorg, back on the chain. */
  async function returnedBlock(miner: MinerFixture): Promise<{ blockId: number; branch: string[] }> {
    const at = new Date();
    await insertShare(getDb(), COIN, miner, {
      difficulty: 1,
      networkDifficulty: 10,
      height: chain.tip(),
      scheme: 'solo',
      at,
    });
    const [hash] = chain.extend(1);
    const height = chain.tip();
    const blockId = await insertBlock(getDb(), COIN, {
      height,
      hash: hash ?? '',
      scheme: 'solo',
      reward: SUBSIDY,
      subsidy: SUBSIDY,
      fees: 0n,
      networkDifficulty: 10,
      finder: miner,
      at: new Date(at.getTime() + 1_000),
    });
    chain.extend(height + 99 - chain.tip());
    await accounting.runOnce();
    const branch = [...chain.hashes];
    chain.reorg(height, 105);
    await accounting.runOnce();
    chain.switchTo(branch, 6);
    await accounting.runOnce();
    return { blockId, branch };
  }

  const recredit = (blockId: number, bearer = token) =>
    api.request('POST', `/api/operator/blocks/${blockId}/recredit`, { token: bearer });
  const blockNet = async (blockId: number) =>
    (await new LedgerRepository(getDb()).entriesForBlock(blockId)).reduce((sum, e) => sum + e.amount, 0n);
  const status = async (blockId: number) =>
    (await new BlockLifecycleRepository(getDb()).get(blockId))?.status;

  it('credits the payees of a returned block back exactly what was reversed, once under two requests at once', async () => {
    const { user, fixture } = await accountMiner();
    const { blockId } = await returnedBlock(fixture);
    // Reversed: the miner sees nothing; the console shows the alert with its block.
    expect(await status(blockId)).toBe('orphaned');
    expect(await balanceSeen(user)).toBe(0n);
    const alerts = await api.request('GET', '/api/operator/alerts', { token });
    const alert = (alerts.json.open as { kind: string; blockId: string | null }[]).find(
      (a) => a.kind === 'block-returned' && a.blockId === String(blockId),
    );
    expect(alert).toBeDefined();

    const answers = await Promise.all([recredit(blockId), recredit(blockId)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const done = answers.find((a) => a.status === 200);
    const refused = answers.find((a) => a.status === 409);
    expect(done?.json).toMatchObject({
      id: String(blockId),
      coin: COIN,
      payees: 2,
      total: SUBSIDY.toString(),
    });
    expect(refused?.json.error.code).toBe('block-already-recredited');

    // Exactly what was reversed, back: the finder's part to the miner, the fee to the pool.
    expect(await balanceSeen(user)).toBe(FINDER);
    expect(await blockNet(blockId)).toBe(SUBSIDY);
    const recredits = (await new LedgerRepository(getDb()).entriesForBlock(blockId)).filter((e) =>
      e.reference.startsWith('recredit:'),
    );
    expect(recredits.map((e) => [e.reason, e.amount]).sort()).toEqual([
      ['fee', SUBSIDY - FINDER],
      ['solo', FINDER],
    ]);
    expect(await accounting.checkBalances()).toEqual([]);

    // The alert is closed, and the audit log names the block.
    const after = await api.request('GET', '/api/operator/alerts', { token });
    expect((after.json.open as { blockId: string | null }[]).some((a) => a.blockId === String(blockId))).toBe(
      false,
    );
    const audit = await api.request('GET', '/api/operator/actions', { token });
    expect(audit.json.items[0]).toMatchObject({ action: 'recredit-block' });
    expect(audit.json.items[0].target).toMatch(new RegExp(`^block ${blockId} BTC \\d+$`));

    // Mature on the chain: the next pass confirms it, and nothing is credited twice.
    expect(await status(blockId)).toBe('pending');
    await accounting.runOnce();
    expect(await status(blockId)).toBe('confirmed');
    expect(await balanceSeen(user)).toBe(FINDER);
    expect(await blockNet(blockId)).toBe(SUBSIDY);
  });

  it('reverses the credit again if the block leaves the chain, and never credits it back a second time', async () => {
    const { user, fixture } = await accountMiner();
    const { blockId, branch } = await returnedBlock(fixture);
    expect((await recredit(blockId)).status).toBe(200);
    expect(await balanceSeen(user)).toBe(FINDER);

    // Another deep reorg takes it off: the re-credit is reversed, the block nets to zero.
    const height = (await new BlockLifecycleRepository(getDb()).get(blockId))?.height ?? 0;
    chain.reorg(height, 110);
    await accounting.runOnce();
    expect(await status(blockId)).toBe('orphaned');
    expect(await balanceSeen(user)).toBe(0n);
    expect(await blockNet(blockId)).toBe(0n);

    // Back once more: the alert opens again, but the block was credited back once already.
    chain.switchTo(branch, 12);
    await accounting.runOnce();
    const again = await recredit(blockId);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('block-already-recredited');
    expect(await balanceSeen(user)).toBe(0n);
    expect(await accounting.checkBalances()).toEqual([]);
  });

  it('refuses an unknown block, one still on its way to maturity, and answers the CLI the same way', async () => {
    expect((await recredit(999_999)).status).toBe(404);
    const { fixture } = await accountMiner();
    const [hash] = chain.extend(1);
    const pending = await insertBlock(getDb(), COIN, {
      height: chain.tip(),
      hash: hash ?? '',
      scheme: 'solo',
      reward: SUBSIDY,
      subsidy: SUBSIDY,
      fees: 0n,
      networkDifficulty: 10,
      finder: fixture,
      at: new Date(),
    });
    const refused = await recredit(pending);
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe('block-not-returned');

    // `manjam block-recredit <id>`: the same function, exit 0 then 2 for the same block.
    const { blockId } = await returnedBlock((await accountMiner()).fixture);
    const run = async (id: number) => {
      const work = parseDbCommand('block-recredit', [String(id)]);
      if ('usage' in work) throw new Error(work.usage);
      const lines: string[] = [];
      const code = await work(getDb(), logger, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
      return { code, lines };
    };
    expect(await run(pending)).toMatchObject({ code: 2 });
    const first = await run(blockId);
    expect(first.code).toBe(0);
    expect(first.lines[0]).toMatch(/credited back: 2 payees, 25(\.0+)? BTC/);
    expect(await run(blockId)).toMatchObject({
      code: 2,
      lines: [expect.stringMatching(/credited back once already/)],
    });
    expect(parseDbCommand('block-recredit', ['x'])).toEqual({
      usage: 'usage: manjam block-recredit <block id>',
    });
    expect(await blockNet(blockId)).toBe(SUBSIDY);
  });
});
