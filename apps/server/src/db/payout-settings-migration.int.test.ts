// Migration 0675 on accounts written before it: the single payout address (and its pending
// change) moves to the coin it was recorded for, or that its format says; the coin-less threshold
// goes with it in that coin's base units; an account paid to its registration wallet keeps that
// address for its preferred coin; the old columns are gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { listMigrations, migrate } from './migrate.js';
import type { Database } from './types.js';

const VERSION = 675;
const BTC = 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn';
const BTC_NEXT = 'rb1qqurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurst2l86c';
const LTC = 'rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7k693xs3';
const XMR = '43SE2g2W29fPioBafSyQd4MZFPnHmY1qYYuiutALpFijYeDcNidCVeVf6B5yboWQujRTkxAWcxRY3KdH6vKEDAajPhmzzGA';
/** A simnet (dev chain) Kaspa address: the public key of thirty-two 0x07 bytes. */
const KAS = 'kaspasim:qqrswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurswklelyd9r';
const LATER = new Date('2030-01-02T03:04:05Z');

interface OldAccount {
  name: string;
  wallet?: string;
  preferred?: string;
  settings?: {
    threshold: '0.001' | '0.01' | '0.1';
    address?: string;
    coin?: string;
    pending?: string;
    pendingCoin?: string;
  };
}

/** An account as the code before 0675 wrote it: users + user_settings with the single address. */
async function oldAccount(db: Database, account: OldAccount): Promise<number> {
  const user = await db.query<{ id: number }>(
    `INSERT INTO users (username, email, password_hash, wallet_address, preferred_coin)
     VALUES ($1, $2, 'x', $3, $4) RETURNING id`,
    [account.name, `${account.name}@example.com`, account.wallet ?? null, account.preferred ?? 'BTC'],
  );
  const id = user.rows[0]?.id ?? 0;
  const s = account.settings;
  if (s)
    await db.query(
      `INSERT INTO user_settings (user_id, payout_threshold, payout_address, payout_coin, pending_payout_address,
                                  pending_payout_coin, pending_payout_effective_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        id,
        s.threshold,
        s.address ?? null,
        s.coin ?? null,
        s.pending ?? null,
        s.pendingCoin ?? null,
        s.pending ? LATER.toISOString() : null,
      ],
    );
  return Number(id);
}

interface NewRow {
  coin: string;
  address: string | null;
  pending_address: string | null;
  pending_effective_at: Date | null;
  threshold: string | null;
}

describe.each(DATABASE_KINDS)('migration 0675 on accounts written before it [%s]', (kind) => {
  let handle: TestDatabase;
  const ids: Record<string, number> = {};
  const rowsOf = async (name: string) =>
    (
      await handle.db.query<NewRow>(
        `SELECT coin, address, pending_address, pending_effective_at, threshold::text AS threshold
           FROM user_payout_settings WHERE user_id = $1 ORDER BY coin`,
        [ids[name]],
      )
    ).rows.map((r) => ({
      ...r,
      pending_effective_at:
        r.pending_effective_at === null ? null : new Date(r.pending_effective_at).toISOString(),
    }));

  beforeAll(async () => {
    handle = await openTestDatabase(
      kind,
      listMigrations().filter((m) => m.version < VERSION),
    );
    const accounts: OldAccount[] = [
      // Saved before 0300 recorded the coin: placed by format (bcoin regtest bech32 -> BTC).
      { name: 'old_btc', settings: { threshold: '0.001', address: BTC } },
      // Recorded as XMR: the threshold becomes 0.1 XMR in 12-decimal units.
      { name: 'recorded_xmr', settings: { threshold: '0.1', address: XMR, coin: 'XMR' } },
      // The case: an LTC address in force and an XMR change pending: both kept, each on its coin.
      {
        name: 'ltc_pending_xmr',
        settings: { threshold: '0.01', address: LTC, coin: 'LTC', pending: XMR, pendingCoin: 'XMR' },
      },
      { name: 'kaspa', settings: { threshold: '0.1', address: KAS } },
      // No payout address: was paid to the registration wallet, which becomes its preferred coin's.
      { name: 'wallet_only', wallet: LTC, preferred: 'LTC', settings: { threshold: '0.001' } },
      // An address no coin of the pool can be: nothing to move; the threshold goes to the preferred coin.
      { name: 'unknown', preferred: 'BTC', settings: { threshold: '0.1', address: 'not-an-address' } },
      { name: 'btc_change', settings: { threshold: '0.01', address: BTC, pending: BTC_NEXT } },
    ];
    for (const account of accounts) ids[account.name] = await oldAccount(handle.db, account);
    expect(await migrate(handle.db)).toEqual(listMigrations().filter((m) => m.version >= VERSION));
  });

  afterAll(async () => {
    await handle?.drop();
  });

  it('moves an old single BTC address to BTC, with its threshold in satoshis', async () => {
    expect(await rowsOf('old_btc')).toEqual([
      { coin: 'BTC', address: BTC, pending_address: null, pending_effective_at: null, threshold: '100000' },
    ]);
  });

  it('moves a recorded XMR address to XMR, and a Kaspa address to KAS by its prefix', async () => {
    expect(await rowsOf('recorded_xmr')).toEqual([
      {
        coin: 'XMR',
        address: XMR,
        pending_address: null,
        pending_effective_at: null,
        threshold: '100000000000',
      },
    ]);
    expect(await rowsOf('kaspa')).toEqual([
      { coin: 'KAS', address: KAS, pending_address: null, pending_effective_at: null, threshold: '10000000' },
    ]);
  });

  it('keeps an LTC address in force and the pending XMR change on XMR with its hold', async () => {
    expect(await rowsOf('ltc_pending_xmr')).toEqual([
      { coin: 'LTC', address: LTC, pending_address: null, pending_effective_at: null, threshold: '1000000' },
      {
        coin: 'XMR',
        address: null,
        pending_address: XMR,
        pending_effective_at: LATER.toISOString(),
        threshold: null,
      },
    ]);
  });

  it('keeps a pending change of the same coin on that coin', async () => {
    expect(await rowsOf('btc_change')).toEqual([
      {
        coin: 'BTC',
        address: BTC,
        pending_address: BTC_NEXT,
        pending_effective_at: LATER.toISOString(),
        threshold: '1000000',
      },
    ]);
  });

  it('gives the registration wallet to the preferred coin, and an unplaceable address to nobody', async () => {
    expect(await rowsOf('wallet_only')).toEqual([
      { coin: 'LTC', address: LTC, pending_address: null, pending_effective_at: null, threshold: '100000' },
    ]);
    expect(await rowsOf('unknown')).toEqual([
      {
        coin: 'BTC',
        address: null,
        pending_address: null,
        pending_effective_at: null,
        threshold: '10000000',
      },
    ]);
  });

  it('drops the single-address columns and answers the address in force per coin in the view', async () => {
    const columns = await handle.db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'user_settings' AND column_name LIKE '%payout%'`,
    );
    expect(columns.rows).toEqual([]);
    const view = await handle.db.query<{ coin: string; address: string | null }>(
      'SELECT coin, address FROM user_payout_addresses WHERE user_id = $1 ORDER BY coin',
      [ids.ltc_pending_xmr],
    );
    expect(view.rows).toEqual([
      { coin: 'LTC', address: LTC },
      { coin: 'XMR', address: null },
    ]);
  });
});
