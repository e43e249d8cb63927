import { expect, it } from 'vitest';
import { createUserMiner, insertShare } from '../../../test/support/accounting/fixtures.js';
import { describeEachDatabase } from '../../../test/support/db.js';
import { SettlementsRepository } from './settlements.js';

describeEachDatabase('daily settlement figures', (db) => {
  it('labels a payee’s day with the scheme most of its shares used, counting the shares a slot row holds', async () => {
    const miner = await createUserMiner(db(), 'BTC');
    const day = new Date('2026-03-01T00:00:00Z');
    const at = new Date('2026-03-01T10:00:00Z');
    const share = { difficulty: 1, networkDifficulty: 1000, height: 200, at };
    // Three rows of one PPLNS share each, and one slot row of 50 PPS+ shares.
    for (let i = 0; i < 3; i++) await insertShare(db(), 'BTC', miner, { ...share, scheme: 'pplns' });
    await insertShare(db(), 'BTC', miner, { ...share, scheme: 'pps-plus', networkDifficulty: 2000 });
    await db().query('UPDATE shares SET share_count = 50 WHERE payee_id = $1 AND scheme = $2', [
      miner.payeeId,
      'pps-plus',
    ]);
    const figures = await new SettlementsRepository(db()).figures(
      'BTC',
      day,
      new Date(day.getTime() + 86_400_000),
    );
    const mine = figures.find((f) => f.payeeId === miner.payeeId);
    expect(mine?.scheme).toBe('pps-plus');
    // The network difficulty is the share-weighted mean: (3 x 1000 + 50 x 2000) / 53.
    expect(mine?.networkDifficulty).toBeCloseTo((3 * 1000 + 50 * 2000) / 53, 6);
  });
});
