/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- tests read JSON bodies field by field */
// A role taken with `manjam operator revoke` ends the console for a session still signed in on
// the very next request (the session cache keeps no operator's role), on PGlite and PostgreSQL.
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';
import { signInWithCode, twoFactorAccount, type TwoFactorAccount } from '../../test/support/operator.js';
import { OperatorAlertsRepository } from '../db/repositories/operator-alerts.js';
import { setOperatorRole } from '../services/operator/operator-role.js';

describeEachDatabase('revoking the operator role', (getDb) => {
  const logger = pino({ level: 'silent' });
  let api: TestApi;
  let operator: TwoFactorAccount;
  let token: string;
  beforeAll(async () => {
    api = await startTestApi(getDb());
    operator = await twoFactorAccount(api, 'revoked_op');
    expect(await setOperatorRole(getDb(), logger, 'grant', operator.email)).toBe(operator.id);
    token = await signInWithCode(api, operator);
  });
  afterAll(() => api.close());

  const raiseAlert = async (n: number): Promise<string> => {
    const key = `block-returned:BTC:revoke-${n}:${api.clock.now}`;
    await new OperatorAlertsRepository(getDb()).raise({
      key,
      kind: 'block-returned',
      coin: 'BTC',
      message: `BTC block ${n} returned to the main chain after its credits were reversed`,
    });
    return key;
  };

  it('answers the next console request of the signed-in session 404 route-not-found, and keeps the audit log as it was', async () => {
    const keys = [await raiseAlert(1), await raiseAlert(2)];
    const alerts = await api.request('GET', '/api/operator/alerts', { token });
    expect(alerts.status).toBe(200);
    const [first, second] = keys.map(
      (key) => (alerts.json.open as { key: string; id: string }[]).find((a) => a.key === key)?.id,
    );
    if (first === undefined || second === undefined) throw new Error('the alerts are not listed as open');
    expect((await api.request('POST', `/api/operator/alerts/${first}/close`, { token })).status).toBe(200);

    // Revoked the way the CLI does it, with no time passing: a cached session would still pass.
    expect(await setOperatorRole(getDb(), logger, 'revoke', operator.email)).toBe(operator.id);
    const read = await api.request('GET', '/api/operator/alerts', { token });
    expect({ status: read.status, code: read.json.error.code }).toEqual({
      status: 404,
      code: 'route-not-found',
    });
    const write = await api.request('POST', `/api/operator/alerts/${second}/close`, { token });
    expect({ status: write.status, code: write.json.error.code }).toEqual({
      status: 404,
      code: 'route-not-found',
    });
    expect((await new OperatorAlertsRepository(getDb()).open()).map((a) => a.key)).toEqual([keys[1]]);
    // Later on (the cache's stale window), still refused; the session itself stays signed in.
    api.clock.now += 5_000;
    expect((await api.request('GET', '/api/operator/health', { token })).status).toBe(404);
    const me = await api.request('GET', '/api/me', { token });
    expect({ status: me.status, operator: me.json.operator }).toEqual({ status: 200, operator: false });

    // Granted again: the same session reads the audit log at once. The close before the revoke
    // is there; the refused one is not, and the CLI's grant and revoke are not console actions.
    expect(await setOperatorRole(getDb(), logger, 'grant', operator.email)).toBe(operator.id);
    const actions = await api.request('GET', '/api/operator/actions?pageSize=50', { token });
    expect(actions.status).toBe(200);
    const mine = (actions.json.items as { action: string; target: string; email: string }[]).filter(
      (item) => item.email === operator.email,
    );
    expect(mine.map((item) => item.action)).toEqual(['close-alert']);
    expect(mine[0]?.target).toMatch(/^block-returned:BTC:revoke-1:/);
  });
});
