// Drill phase NAME=money (issue 27, items 3-5): money figures that agree and say their age.
//   1. A payout the pool wallet cannot fund, on the real BTC dev chain (bcoin): the run fails, the
//      balance comes back, and the figures a miner sees (24 h earnings, today so far, the next
//      daily reward row) are printed beside what the pre-0660 rule (every movement but payouts)
//      would have shown; the payouts list's failure reason is printed as the API returns it.
//   2. Credits that stop keeping up: the accounting loop runs (cycle 1 s, behind after 3 cycles),
//      then stops while shares keep arriving; the revenue summary is polled and the drill prints
//      how long after the last cycle it said "behind", and how long after accounting restarted
//      it was caught up again, with the shares credited meanwhile.
// The real API over HTTP on 127.0.0.1; PostgreSQL when it answers, else PGlite.
//   npx tsx bench/edge-money.ts [--stall-seconds=6] [--db=pglite|postgres]
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PayoutPage, RevenueSummary, RewardPage } from '@manjam/contract';
import { blockSubsidy, coinParams, formatCoinAmount } from '@manjam/protocol';
import { pino } from 'pino';
import { RpcAccountingChain } from '../../apps/server/src/coins/bitcoin/wallet.js';
import { startAccounting, type AccountingService } from '../../apps/server/src/accounting/index.js';
import { insertShare, type MinerFixture } from '../../apps/server/test/support/accounting/fixtures.js';
import {
  outsideAddress,
  stratumNetworkDifficulty,
} from '../../apps/server/test/support/accounting/regtest.js';
import { ChainNode } from '../../apps/server/src/coins/bitcoin/node/node.js';
import type { Database } from '../../apps/server/src/db/index.js';
import { FixtureWriter } from '../../apps/server/test/support/db/fixtures.js';
import { startBtcDevChain } from '../../apps/server/src/coins/bitcoin/devchain/index.js';
import { startTestApi, type TestApi } from '../../apps/server/test/support/http.js';
import { chooseDatabase, openBenchDatabase, type BenchDatabaseKind } from './database.js';
import { Report, fixed, int, load, verdict } from './report.js';

const COIN = 'BTC';
const DAY_MS = 86_400_000;
const logger = pino({ level: 'silent' });

interface Options {
  stallSeconds: number;
  db: BenchDatabaseKind | undefined;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { stallSeconds: 6, db: undefined };
  for (const arg of argv) {
    const [key = '', value = ''] = arg.replace(/^--/, '').split('=');
    if (key === 'stall-seconds' && Number(value) > 0) options.stallSeconds = Number(value);
    else if (key === 'db' && (value === 'pglite' || value === 'postgres')) options.db = value;
    else throw new Error(`unknown option ${arg} (stall-seconds, db)`);
  }
  return options;
}

interface Miner {
  api: TestApi;
  token: string;
  userId: number;
  fixture: MinerFixture;
}

async function get<T>(miner: Miner, path: string): Promise<T> {
  miner.api.clock.now = Date.now();
  miner.api.forget(miner.userId);
  const res = await miner.api.request('GET', path, { token: miner.token });
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${res.text}`);
  return res.json as T;
}

async function btcFigures(miner: Miner): Promise<RevenueSummary['coins'][number]> {
  const btc = (await get<RevenueSummary>(miner, '/api/revenue/summary')).coins.find((c) => c.coin === COIN);
  if (!btc) throw new Error('no BTC figures');
  return btc;
}

async function signUpMiner(api: TestApi, db: Database, name: string): Promise<Miner> {
  const user = await api.signUp(name);
  const fx = new FixtureWriter(db);
  const payeeId = await fx.userPayee(user.id, COIN);
  const workerId = await fx.worker(payeeId, 'rig1', { lastShareAt: new Date() });
  await db.query(
    `INSERT INTO user_payout_settings (user_id, coin, threshold, address) VALUES ($1, $2, 100000, $3)
     ON CONFLICT (user_id, coin) DO UPDATE SET threshold = EXCLUDED.threshold, address = EXCLUDED.address`,
    [user.id, COIN, outsideAddress(COIN, `${name}-${Date.now()}`)],
  );
  return { api, token: user.token, userId: user.id, fixture: { payeeId, workerId, userId: user.id } };
}

/** What the figures were before migration 0660: every ledger movement but payouts, refunds included. */
async function oldRuleEarnings(db: Database, payeeId: number): Promise<bigint> {
  const rows = await db.query<{ total: bigint | null }>(
    "SELECT SUM(amount)::bigint AS total FROM ledger_entries WHERE payee_id = $1 AND reason <> 'payout'",
    [payeeId],
  );
  return rows.rows[0]?.total ?? 0n;
}

/** One slot row of full-subsidy shares worth about twice what the pool wallet holds. */
async function earnBeyondWallet(
  db: Database,
  node: ChainNode,
  miner: Miner,
): Promise<{ wallet: bigint; shares: number; height: number }> {
  const wallet = await RpcAccountingChain.fromNode(node).getWalletBalance();
  const height = (await node.getBlockCount()) + 1;
  const subsidy = blockSubsidy(coinParams(COIN, 'regtest'), height);
  const D = await stratumNetworkDifficulty(node, COIN);
  await insertShare(db, COIN, miner.fixture, {
    difficulty: D,
    networkDifficulty: D,
    height,
    scheme: 'pps-plus',
    at: new Date(),
  });
  const shares = 2 * Number(wallet / subsidy) + 2;
  await db.query('UPDATE shares SET share_count = $1 WHERE payee_id = $2', [shares, miner.fixture.payeeId]);
  return { wallet, shares, height };
}

async function failedPayoutPhase(report: Report, db: Database, api: TestApi): Promise<void> {
  const dev = await startBtcDevChain({ logger });
  const node = new ChainNode({ coin: COIN, rpc: dev.rpc, walletRpc: dev.walletRpc });
  const services: AccountingService[] = [];
  const open = async (now?: () => Date) => {
    const service = await startAccounting({
      config: api.config,
      db,
      logger,
      events: api.events,
      chains: new Map([[COIN, RpcAccountingChain.fromNode(node)]]),
      loop: false,
      ...(now ? { now } : {}),
    });
    services.push(service);
    return service;
  };
  try {
    const miner = await signUpMiner(api, db, 'drill_refund');
    const { wallet, shares, height } = await earnBeyondWallet(db, node, miner);
    const service = await open();
    await service.runOnce();
    const credited = BigInt((await btcFigures(miner)).balance);
    const started = performance.now();
    const [run] = await service.runPayouts(COIN);
    const runMs = performance.now() - started;
    const after = await btcFigures(miner);
    const dashboard = await get<{ dailyEarnings: { value: string } }>(miner, '/api/dashboard');
    const payouts = await get<PayoutPage>(miner, '/api/payouts');
    const failed = payouts.items.find((p) => p.status === 'failed');
    const tomorrow = Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS + 10 * 60_000;
    await (await open(() => new Date(tomorrow))).runOnce();
    const reward = (await get<RewardPage>(miner, '/api/rewards')).items[0];
    const old = await oldRuleEarnings(db, miner.fixture.payeeId);
    const f = (units: bigint | string): string => formatCoinAmount(BigInt(units), COIN);
    report.line(`  1. failed payout on the BTC dev chain (bcoin, height ${height - 1})`);
    report.line(
      `     pool wallet ${f(wallet)}; one miner credited ${f(credited)} (${int(shares)} full-subsidy shares)`,
    );
    report.line(
      `     payout run: ${run?.status ?? 'none'} in ${fixed(runMs)} ms; payouts list: status ${failed?.status ?? '-'}, failure ${failed?.failure ?? '-'}, txId ${failed?.txId ?? 'null'}`,
    );
    report.line(
      `     balance after the failed run: ${f(after.balance)} (credited ${f(credited)}): ${verdict(BigInt(after.balance) === credited)}`,
    );
    report.line(
      `     24h earnings ${f(dashboard.dailyEarnings.value)}, today so far ${f(after.accrued)}, next reward row ${reward ? f(reward.amount) : 'none'}`,
    );
    report.line(`     the pre-0660 rule would have shown ${f(old)} (refund counted: +${f(old - credited)})`);
    const agree = [dashboard.dailyEarnings.value, after.accrued, reward?.amount ?? ''].every(
      (v) => v === credited.toString(),
    );
    report.line(`     every earnings figure = the credits, refund left out: ${verdict(agree)}`);
  } finally {
    for (const service of services) await service.stop();
    node.close();
    await dev.stop();
  }
}

/** Polls until the credits are current again after a restart (at most 30 s): how long it took. */
async function waitCaughtUp(
  miner: Miner,
  restarted: number,
  stalled: RevenueSummary['coins'][number],
): Promise<{ caughtUp: number | null; last: RevenueSummary['coins'][number] }> {
  let last = stalled;
  while (Date.now() - restarted < 30_000) {
    last = await btcFigures(miner);
    if (!last.creditsBehind && Date.parse(last.creditedUpTo ?? '') >= restarted - 1_000)
      return { caughtUp: Date.now() - restarted, last };
    await sleep(100);
  }
  return { caughtUp: null, last };
}

async function stallPhase(report: Report, db: Database, api: TestApi, stallSeconds: number): Promise<void> {
  const { cycleSeconds, creditsBehindCycles } = api.config.accounting;
  const miner = await signUpMiner(api, db, 'drill_stall');
  const share = async () =>
    insertShare(db, COIN, miner.fixture, {
      difficulty: 1,
      networkDifficulty: 1000,
      height: 200,
      scheme: 'pps-plus',
      at: new Date(),
    });
  const loop = () =>
    startAccounting({
      config: api.config,
      db,
      logger,
      events: api.events,
      chains: new Map(),
      creditOnlyCoins: [COIN],
    });
  let accounting = await loop();
  for (let i = 0; i < 3; i++) {
    await share();
    await sleep(cycleSeconds * 1000);
  }
  await sleep(cycleSeconds * 1000);
  const before = await btcFigures(miner);
  const beforeAge = Date.now() - Date.parse(before.creditedUpTo ?? '');
  await accounting.stop();
  const stoppedAt = Date.now();
  let inserted = 0;
  let behindAfter: number | null = null;
  while (Date.now() - stoppedAt < stallSeconds * 1000) {
    await share();
    inserted++;
    const figures = await btcFigures(miner);
    if (figures.creditsBehind && behindAfter === null)
      behindAfter = Date.now() - Date.parse(figures.creditedUpTo ?? '');
    await sleep(250);
  }
  const stalled = await btcFigures(miner);
  const restarted = Date.now();
  accounting = await loop();
  const { caughtUp, last } = await waitCaughtUp(miner, restarted, stalled);
  await accounting.stop();
  const limitMs = cycleSeconds * creditsBehindCycles * 1000;
  report.line(
    `  2. credits that stop keeping up (cycle ${fixed(cycleSeconds)} s, behind after ${creditsBehindCycles} cycles = ${fixed(limitMs / 1000)} s)`,
  );
  report.line(
    `     while running: credits ${fixed(beforeAge / 1000, 2)} s old, behind ${String(before.creditsBehind)}`,
  );
  report.line(
    `     accounting stopped ${fixed(stallSeconds)} s with ${int(inserted)} shares arriving: said "behind" when credits were ${behindAfter === null ? 'never' : `${fixed(behindAfter / 1000)} s`} old (limit ${fixed(limitMs / 1000)} s): ${verdict(behindAfter !== null && behindAfter <= limitMs + 1_000)}`,
  );
  report.line(
    `     today so far stalled at ${stalled.accrued} sat while shares arrived; after restart caught up in ${caughtUp === null ? 'more than 30 s' : `${fixed(caughtUp / 1000, 2)} s`}: today so far ${last.accrued} sat, behind ${String(last.creditsBehind)}: ${verdict(caughtUp !== null && BigInt(last.accrued) > BigInt(stalled.accrued))}`,
  );
}

export async function runEdgeMoney(report: Report, argv: string[]): Promise<void> {
  const options = parseOptions(argv);
  const kind = await chooseDatabase(options.db);
  const bench = await openBenchDatabase(kind);
  const api = await startTestApi(bench.db, {
    config: { accounting: { cycleSeconds: 1, creditsBehindCycles: 3 } },
  });
  report.line(`edge drill: money — figures that agree and say their age (${kind}; load ${load()})`);
  try {
    await failedPayoutPhase(report, bench.db, api);
    await stallPhase(report, bench.db, api, options.stallSeconds);
  } finally {
    await api.close();
    await bench.close();
  }
}
