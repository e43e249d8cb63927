/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- tests read JSON bodies field by field */
// The operator console's API over real HTTP, on PGlite and PostgreSQL: who is refused, what an
// operator reads, and that each write lands in the database (issue 30).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWalletMiner, insertBlock, regtestAddress } from '../../test/support/accounting/fixtures.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';
import {
  heldRun,
  signedInOperator,
  signInWithCode,
  twoFactorAccount,
  type TwoFactorAccount,
} from '../../test/support/operator.js';
import { runKey } from '../accounting/operator-alerts.js';
import { CreditProgressRepository } from '../db/repositories/credit-progress.js';
import { PayoutsRepository } from '../db/repositories/payouts.js';
import { OperatorAlertsRepository } from '../db/repositories/operator-alerts.js';
import { UsersRepository } from '../db/repositories/users.js';
import { BanList } from '../stratum/bans.js';

const BAN_SETTINGS = {
  enabled: true,
  checkAfterShares: 10,
  invalidPercent: 50,
  durationSeconds: 3_600,
  connectionBanSeconds: 3_600,
  addressBanAfterConnections: 2,
  offenceWindowSeconds: 3_600,
};

describeEachDatabase('the operator console API', (getDb) => {
  let api: TestApi;
  let bans: BanList;
  let operator: TwoFactorAccount;
  let token: string;
  beforeAll(async () => {
    bans = new BanList(BAN_SETTINGS);
    api = await startTestApi(getDb(), { bans });
    // The health report of a process that runs Stratum: its share writer has 7 shares waiting.
    api.health.report = {
      ...api.health.report,
      stratum: { connections: 3, v2: { connections: 0, channels: 0 }, sharesUnstored: 7 },
    };
    ({ account: operator, token } = await signedInOperator(api, getDb()));
  });
  afterAll(() => api.close());

  const operatorRoutes = () =>
    api.http.routes.filter((route) => route.url.startsWith('/api/operator/')).map((r) => [r.method, r.url]);
  const call = (method: string, url: string, bearer?: string) =>
    api.request(method, url.replace(':id', '1'), {
      ...(bearer ? { token: bearer } : {}),
      ...(method === 'POST' ? { body: {} } : {}),
    });

  it('answers 404 route-not-found to every console route for a visitor and for a signed-in non-operator', async () => {
    const miner = await api.signUp();
    expect(operatorRoutes().length).toBeGreaterThanOrEqual(8);
    for (const [method = '', url = ''] of operatorRoutes()) {
      for (const bearer of [undefined, miner.token]) {
        const res = await call(method, url, bearer);
        expect({ url, status: res.status, code: res.json.error.code }).toEqual({
          url,
          status: 404,
          code: 'route-not-found',
        });
      }
    }
    expect((await api.request('GET', '/api/me', { token: miner.token })).json.operator).toBe(false);
  });

  it('refuses an operator without 2FA, and a session opened before 2FA was on, with 403 totp-required', async () => {
    const plain = await api.signUp();
    await new UsersRepository(getDb()).setOperator(plain.email, true);
    for (const [method = '', url = ''] of operatorRoutes()) {
      const res = await call(method, url, plain.token);
      expect({ url, status: res.status, code: res.json.error.code }).toEqual({
        url,
        status: 403,
        code: 'totp-required',
      });
    }
    const ar = await api.request('GET', '/api/operator/health', {
      token: plain.token,
      headers: { 'accept-language': 'ar' },
    });
    expect(ar.json.error.message).toContain('التحقق الثنائي');
    // The operator's own first session was opened with the password only.
    const early = await api.request('GET', '/api/operator/health', { token: operator.token });
    expect(early.status).toBe(403);
    expect(early.json.error.code).toBe('totp-required');
    expect((await api.request('GET', '/api/me', { token: operator.token })).json.operator).toBe(true);
  });

  it('shows an operator signed in with a code the health summary: chains, backlog, credited up to', async () => {
    const through = new Date(api.clock.now - 90_000);
    await new CreditProgressRepository(getDb()).record('BTC', through);
    const res = await api.request('GET', '/api/operator/health', { token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      asOf: new Date(api.clock.now).toISOString(),
      status: 'ok',
      database: { ok: true },
      chains: [{ coin: 'BTC', ok: true, height: 101 }],
      openAlerts: 0,
      shareLogBacklog: 7,
      accounting: [{ coin: 'BTC', creditedThrough: through.toISOString() }],
    });
    expect(res.json.accounting[0].behindSeconds).toBeGreaterThanOrEqual(90);
  });

  it('lists open alerts with their runbook section, closes one, and then lists it as past', async () => {
    const key = `block-returned:BTC:${api.clock.now}`;
    await new OperatorAlertsRepository(getDb()).raise({
      key,
      kind: 'block-returned',
      coin: 'BTC',
      message: 'BTC block 120 returned to the main chain after its credits were reversed',
    });
    const before = await api.request('GET', '/api/operator/alerts', { token });
    const open = (before.json.open as { key: string; id: string }[]).find((a) => a.key === key);
    if (!open) throw new Error('the alert is not listed as open');
    expect(open).toMatchObject({
      kind: 'block-returned',
      clearedAt: null,
      runbook: { doc: 'docs/OPERATIONS.md', anchor: 'alert-block-returned' },
    });
    const closed = await api.request('POST', `/api/operator/alerts/${open.id}/close`, { token });
    expect(closed.status).toBe(200);
    expect(closed.json.clearedAt).not.toBeNull();
    const after = await api.request('GET', '/api/operator/alerts', { token });
    expect((after.json.open as { key: string }[]).map((a) => a.key)).not.toContain(key);
    expect(after.json.past.items[0]).toMatchObject({ key, id: open.id });
    const again = await api.request('POST', `/api/operator/alerts/${open.id}/close`, { token });
    expect(again.status).toBe(404);
    expect((await new OperatorAlertsRepository(getDb()).open()).map((a) => a.key)).not.toContain(key);
  });

  it('lists payout runs and settles a held one once: a second settle is refused with 409', async () => {
    const a = await createWalletMiner(getDb(), 'LTC', regtestAddress('op-a'));
    const b = await createWalletMiner(getDb(), 'LTC', regtestAddress('op-b'));
    const runId = await heldRun(
      getDb(),
      'LTC',
      [
        { payeeId: a.payeeId, address: regtestAddress('op-a'), amount: 150_000n },
        { payeeId: b.payeeId, address: regtestAddress('op-b'), amount: 250_000n },
      ],
      `api-${api.clock.now}`,
    );
    const list = await api.request('GET', '/api/operator/payout-runs?pageSize=5', { token });
    expect(list.json.items[0]).toMatchObject({
      id: runId.toString(),
      coin: 'LTC',
      status: 'intent',
      settleable: true,
      payouts: 2,
      total: '400000',
      txid: null,
    });
    const badTxid = await api.request('POST', `/api/operator/payout-runs/${runId}/settle`, {
      token,
      body: { outcome: 'sent', txid: 'abc' },
    });
    expect(badTxid.status).toBe(400);
    const settled = await api.request('POST', `/api/operator/payout-runs/${runId}/settle`, {
      token,
      body: { outcome: 'failed' },
    });
    expect(settled.status).toBe(200);
    expect(settled.json).toEqual({
      id: runId.toString(),
      coin: 'LTC',
      status: 'failed',
      payouts: 2,
      total: '400000',
    });
    const second = await api.request('POST', `/api/operator/payout-runs/${runId}/settle`, {
      token,
      body: { outcome: 'failed' },
    });
    expect(second.status).toBe(409);
    expect(second.json.error.code).toBe('payout-run-not-held');
    const balances = await getDb().query<{ amount: bigint }>(
      'SELECT amount FROM balances WHERE payee_id = ANY($1::int[]) AND coin = $2 ORDER BY payee_id',
      [[a.payeeId, b.payeeId], 'LTC'],
    );
    expect(balances.rows.map((r) => BigInt(r.amount))).toEqual([150_000n, 250_000n]);
    const after = await api.request('GET', '/api/operator/payout-runs?pageSize=5', { token });
    expect(after.json.items[0]).toMatchObject({ status: 'failed', settleable: false, failure: 'cancelled' });
    expect(after.json.items[0].error).toContain('settled by the operator');
    const unknown = await api.request('POST', '/api/operator/payout-runs/999999999/settle', {
      token,
      body: { outcome: 'failed' },
    });
    expect(unknown.status).toBe(404);
  });

  it('lists found blocks with their confirmations and effort', async () => {
    await insertBlock(getDb(), 'BTC', {
      height: 95,
      hash: 'ab'.repeat(32),
      scheme: 'pps-plus',
      reward: 5_000_000_000n,
      subsidy: 5_000_000_000n,
      fees: 0n,
      networkDifficulty: 1,
      finder: null,
      at: new Date(api.clock.now - 60_000),
    });
    const res = await api.request('GET', '/api/operator/blocks?coin=BTC', { token });
    expect(res.status).toBe(200);
    expect(res.json.items[0]).toMatchObject({ coin: 'BTC', height: 95, hash: 'ab'.repeat(32) });
    expect(res.json.items[0]).toHaveProperty('confirmations');
    expect(res.json.items[0]).toHaveProperty('effort');
  });

  it('lists the bans in force and lifts an address: the pool takes it again', async () => {
    const ip = '203.0.113.7';
    const record = bans.admit(ip, 10, api.clock.now);
    if (!record) throw new Error('address not admitted');
    bans.offend(record, ['alice.rig1'], api.clock.now);
    expect(bans.offend(record, ['alice.rig2'], api.clock.now)).toBe(true);
    bans.release(record, api.clock.now);
    const listed = await api.request('GET', '/api/operator/bans', { token });
    expect(listed.json.available).toBe(true);
    expect(listed.json.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ scope: 'ip', ip, login: null }),
        expect.objectContaining({ scope: 'connection', ip, login: 'alice.rig1' }),
      ]),
    );
    const lifted = await api.request('POST', '/api/operator/bans/lift', { token, body: { ip } });
    expect(lifted.status).toBe(200);
    expect(lifted.json.lifted).toBe(3);
    expect(bans.isBanned(ip, api.clock.now)).toBe(false);
    expect(bans.isLoginBanned(ip, 'alice.rig1', api.clock.now)).toBe(false);
    expect(bans.admit(ip, 10, api.clock.now)).toBeDefined();
    expect((await api.request('GET', '/api/operator/bans', { token })).json.items).toEqual([]);
    const again = await api.request('POST', '/api/operator/bans/lift', { token, body: { ip } });
    expect(again.status).toBe(404);
  });

  it('grants the role to another account, which opens the console at once, and revokes it: its next request is 404', async () => {
    const colleague = await twoFactorAccount(api);
    const colleagueToken = await signInWithCode(api, colleague);
    expect((await api.request('GET', '/api/operator/health', { token: colleagueToken })).status).toBe(404);
    const grant = (action: string, email: string) =>
      api.request('POST', '/api/operator/operators', { token, body: { email, action } });
    const granted = await grant('grant', colleague.email);
    expect(granted.status).toBe(200);
    expect(granted.json).toEqual({ email: colleague.email, operator: true });
    expect((await api.request('GET', '/api/operator/health', { token: colleagueToken })).status).toBe(200);
    const nobody = await grant('grant', 'nobody@example.com');
    expect(nobody.status).toBe(404);
    expect(nobody.json.error.code).toBe('account-not-found');
    expect((await grant('promote', colleague.email)).status).toBe(400);
    expect((await grant('revoke', colleague.email)).json).toEqual({
      email: colleague.email,
      operator: false,
    });
    expect((await api.request('GET', '/api/operator/health', { token: colleagueToken })).status).toBe(404);
  });

  it('keeps each action in the audit log with who, from where and when, and not the refused ones', async () => {
    const res = await api.request('GET', '/api/operator/actions?pageSize=50', { token });
    expect(res.status).toBe(200);
    const items = res.json.items as {
      action: string;
      target: string;
      email: string;
      ip: string;
      at: string;
    }[];
    expect(items.map((i) => i.action)).toEqual([
      'revoke-operator',
      'grant-operator',
      'lift-ban',
      'settle-payout-run',
      'close-alert',
    ]);
    expect(items[0]?.target).toBe(items[1]?.target);
    expect(items[0]?.target).toMatch(/@/);
    expect(items[2]?.target).toBe('203.0.113.7');
    expect(items[3]?.target).toMatch(/^run \d+ failed$/);
    expect(items[4]?.target).toMatch(/^block-returned:BTC:/);
    for (const item of items) {
      expect(item.email).toBe(operator.email);
      expect(item.ip).toBe('127.0.0.1');
      expect(Number.isNaN(Date.parse(item.at))).toBe(false);
    }
    expect(res.json.total).toBe(5);
  });
  it('records a hand-made payment against a sent run whose transaction went missing, or gives the balances back', async () => {
    const label = `missing-${api.clock.now}`;
    /** A run sent with `txid` whose transaction the wallet lost (payout-missing open when `alert`). */
    const sentRun = async (name: string, txid: string, alert: boolean) => {
      const miner = await createWalletMiner(getDb(), 'LTC', regtestAddress(`${label}-${name}`));
      const runId = await heldRun(
        getDb(),
        'LTC',
        [{ payeeId: miner.payeeId, address: regtestAddress(`${label}-${name}`), amount: 300_000n }],
        `${label}-${name}`,
      );
      await new PayoutsRepository(getDb()).markSent(runId, txid);
      if (alert)
        await new OperatorAlertsRepository(getDb()).raise({
          key: runKey('payout-missing', 'LTC', runId),
          kind: 'payout-missing',
          coin: 'LTC',
          message: `LTC payout run ${runId}: the wallet no longer knows its transaction`,
        });
      return { runId, payeeId: miner.payeeId };
    };
    const repaid = await sentRun('repaid', 'd1'.repeat(32), true);
    const unpaid = await sentRun('unpaid', 'd2'.repeat(32), true);
    const fine = await sentRun('fine', 'd3'.repeat(32), false);
    const list = await api.request('GET', '/api/operator/payout-runs?pageSize=10', { token });
    const settleable = (id: bigint) =>
      (list.json.items as { id: string; settleable: boolean }[]).find((r) => r.id === id.toString())
        ?.settleable;
    expect([settleable(repaid.runId), settleable(unpaid.runId), settleable(fine.runId)]).toEqual([
      true,
      true,
      false,
    ]);
    const settle = (id: bigint, body: unknown) =>
      api.request('POST', `/api/operator/payout-runs/${id}/settle`, { token, body });
    const handTxid = 'e4'.repeat(32);
    expect((await settle(repaid.runId, { outcome: 'sent', txid: handTxid })).json).toMatchObject({
      status: 'sent',
      total: '300000',
    });
    expect((await settle(unpaid.runId, { outcome: 'failed' })).json).toMatchObject({ status: 'failed' });
    expect((await settle(fine.runId, { outcome: 'failed' })).status).toBe(409);
    const runs = await getDb().query<{ id: string; status: string; txid: string | null }>(
      'SELECT id, status, txid FROM payout_runs WHERE id = ANY($1::bigint[]) ORDER BY id',
      [[repaid.runId, unpaid.runId, fine.runId]],
    );
    expect(runs.rows.map((r) => [r.status, r.txid])).toEqual([
      ['sent', handTxid],
      ['failed', 'd2'.repeat(32)],
      ['sent', 'd3'.repeat(32)],
    ]);
    const balance = async (payeeId: number) =>
      BigInt(
        (
          await getDb().query<{ amount: bigint }>(
            'SELECT amount FROM balances WHERE payee_id = $1 AND coin = $2',
            [payeeId, 'LTC'],
          )
        ).rows[0]?.amount ?? -1n,
      );
    expect([await balance(repaid.payeeId), await balance(unpaid.payeeId)]).toEqual([0n, 300_000n]);
    const open = (await new OperatorAlertsRepository(getDb()).open()).map((a) => a.key);
    expect(open).not.toContain(runKey('payout-missing', 'LTC', repaid.runId));
    expect(open).not.toContain(runKey('payout-missing', 'LTC', unpaid.runId));
  });
});
