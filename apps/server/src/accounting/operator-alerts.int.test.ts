// Operator alerts as the operator meets them: a payout run that never completes, a wallet that
// cannot fund a run, an accounting step failing cycle after cycle. Each opens once (one ALERT,
// one email through a real SMTP server), shows on the health report's source (open rows), and
// clears when its condition passes.
import type { ParsedMail } from 'mailparser';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { parseConfig } from '../config/index.js';
import { OperatorAlertsRepository } from '../db/repositories/operator-alerts.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { PoolEvents } from '../events.js';
import { operatorChannel } from '../services/alerts/operator.js';
import { startAccounting, type AccountingService } from './index.js';
import {
  createUserMiner,
  insertShare,
  regtestAddress,
  type MinerFixture,
} from '../../test/support/accounting/fixtures.js';
import { MemoryChain } from '../../test/support/accounting/memory-chain.js';
import { startSmtpInbox, type SmtpInbox } from '../../test/support/smtp-inbox.js';

const COIN = 'BTC';
const logger = pino({ level: 'silent' });

let smtp: SmtpInbox;
beforeAll(async () => {
  smtp = await startSmtpInbox();
});
afterAll(async () => {
  await smtp.close();
});

describeEachDatabase('operator alerts from accounting', (db) => {
  let clock = new Date();
  const minutes = (n: number): void => {
    clock = new Date(clock.getTime() + n * 60_000);
  };
  const open = async (chain: MemoryChain): Promise<AccountingService> => {
    const config = parseConfig({
      smtp: { url: smtp.url, from: 'Manjam <pool@manjam.example>' },
      operator: { email: 'ops@manjam.example' },
    });
    const channel = operatorChannel(config);
    if (!channel) throw new Error('operator channel not configured');
    return startAccounting({
      config,
      db: db(),
      logger,
      events: new PoolEvents(),
      chains: new Map([[COIN, chain]]),
      loop: false,
      now: () => clock,
      notifyOperator: (message) => channel.notify(message),
    });
  };
  const openAlerts = async (): Promise<string[]> =>
    (await new OperatorAlertsRepository(db()).open()).map((a) => a.key);
  const earn = async (miner: MinerFixture): Promise<void> => {
    await insertShare(db(), COIN, miner, {
      difficulty: 1,
      networkDifficulty: 1000,
      height: 200,
      scheme: 'pps-plus',
      at: new Date(),
    });
  };
  /** Mails to the operator about `key` since this test began (both databases share the SMTP server). */
  let firstMail = 0;
  beforeEach(() => {
    firstMail = smtp.inbox.length;
  });
  const mailsAbout = (key: string): ParsedMail[] =>
    smtp.inbox
      .slice(firstMail)
      .filter((m) => m.to === 'ops@manjam.example' && (m.mail.text ?? '').includes(key))
      .map((m) => m.mail);

  it('a sent run that never confirms raises payout-stuck once (one email) past stuckPayoutMinutes, and clears once confirmed', async () => {
    const chain = new MemoryChain(200);
    chain.walletBalance = 1_000_000_000n;
    const miner = await createUserMiner(db(), COIN, {
      payoutAddress: regtestAddress('stuck'),
      threshold: '0.001',
    });
    await earn(miner);
    const service = await open(chain);
    await service.runOnce();
    const [run] = await service.runPayouts(COIN);
    expect(run?.status).toBe('sent');
    const key = `payout-stuck:${COIN}:${run?.runId}`;
    minutes(89);
    await service.runOnce();
    expect(await openAlerts()).not.toContain(key);
    minutes(2);
    await service.runOnce();
    await service.runOnce();
    expect(await openAlerts()).toContain(key);
    const [mail] = mailsAbout(key);
    expect(mailsAbout(key)).toHaveLength(1);
    expect(mail?.subject).toBe(`[Manjam] payout-stuck ${COIN}`);
    expect(mail?.text).toMatch(new RegExp(`payout run ${run?.runId} has been 'sent' for 9[01] min`));
    chain.extend(1);
    await service.runOnce();
    expect(await openAlerts()).not.toContain(key);
    await service.stop();
  });

  it('a wallet that cannot fund the run raises wallet-insufficient; the next run sent clears it', async () => {
    const chain = new MemoryChain(200);
    const miner = await createUserMiner(db(), COIN, {
      payoutAddress: regtestAddress('empty'),
      threshold: '0.001',
    });
    await earn(miner);
    const service = await open(chain);
    await service.runOnce();
    expect((await service.runPayouts(COIN))[0]?.status).toBe('insufficient-funds');
    expect(await openAlerts()).toContain(`wallet-insufficient:${COIN}`);
    expect(mailsAbout(`wallet-insufficient:${COIN}`)).toHaveLength(1);
    chain.walletBalance = 1_000_000_000n;
    expect((await service.runPayouts(COIN))[0]?.status).toBe('sent');
    expect(await openAlerts()).not.toContain(`wallet-insufficient:${COIN}`);
    chain.extend(1);
    await service.runOnce();
    await service.stop();
  });

  it('an accounting step failing alertAfterFailedCycles cycles in a row raises one alert; its first success clears it', async () => {
    const chain = new MemoryChain(200);
    const getBlockCount = chain.getBlockCount.bind(chain);
    chain.getBlockCount = () =>
      Promise.reject(
        Object.assign(new Error('getblockcount: cannot reach node (ECONNREFUSED)'), { kind: 'transport' }),
      );
    const service = await open(chain);
    const key = `accounting-errors:${COIN}:blocks`;
    for (let i = 0; i < 5; i++) await service.runOnce();
    expect(await openAlerts()).not.toContain(key);
    await service.runOnce();
    await service.runOnce();
    expect(await openAlerts()).toContain(key);
    expect(mailsAbout(key)).toHaveLength(1);
    expect(mailsAbout(key)[0]?.text).toContain(
      "step 'blocks' failed 6 times in a row: getblockcount: cannot reach node",
    );
    chain.getBlockCount = getBlockCount;
    await service.runOnce();
    expect(await openAlerts()).not.toContain(key);
    await service.stop();
  });
});
