// The single-address fault (issue 27, item 2) in figures. Phase 1: migration 0675 on N accounts
// written the old way (one address for every coin, a pending change of any coin, a coin-less
// threshold): how long it takes, where each address went, and whether every address placed on a
// coin decodes as a payable address of that coin (protocol's isPayableAddress), since the
// migration can only read formats. Phase 2: the issue's sequence (XMR address, XMR change
// pending, then an LTC address saved) under the old rule and the new one.
import { performance } from 'node:perf_hooks';
import { bech32 } from 'bech32';
import bs58check from 'bs58check';
import { isCoin, isPayableAddress, type Coin, type Network } from '@manjam/protocol';
import { listMigrations, migrate } from '../../apps/server/src/db/migrate.js';
import { PayoutSettingsRepository } from '../../apps/server/src/db/repositories/payout-settings.js';
import { effectiveAtOf } from '../../apps/server/src/services/settings/payout-settings.js';
import { DATABASE_KINDS, openTestDatabase, type DatabaseKind } from '../../apps/server/test/support/db.js';
import type { Database } from '../../apps/server/src/db/types.js';
import { Report, fixed, int } from './report.js';

const VERSION = 675;
const XMR = '43SE2g2W29fPioBafSyQd4MZFPnHmY1qYYuiutALpFijYeDcNidCVeVf6B5yboWQujRTkxAWcxRY3KdH6vKEDAajPhmzzGA';
/** A simnet (dev chain) Kaspa address: the public key of thirty-two 0x07 bytes. */
const KAS = 'kaspasim:qqrswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurswklelyd9r';

/** One kind of old address: how to make the i-th, the coin and network it really is (null: none). */
interface Kind {
  label: string;
  make: (i: number) => string;
  truth: { coin: Coin; network: Network } | null;
  recorded: boolean;
}

const program = (i: number): Buffer => {
  const bytes = Buffer.alloc(20);
  bytes.writeUInt32BE(i + 1, 16);
  return bytes;
};
const segwit = (hrp: string, i: number): string => bech32.encode(hrp, [0, ...bech32.toWords(program(i))]);
const base58 = (version: number, i: number): string =>
  bs58check.encode(Buffer.concat([Buffer.from([version]), program(i)]));

const KINDS: Kind[] = [
  {
    label: 'BTC regtest rb1 (no coin)',
    make: (i) => segwit('rb', i),
    truth: { coin: 'BTC', network: 'regtest' },
    recorded: false,
  },
  {
    label: 'BTC mainnet bc1 (no coin)',
    make: (i) => segwit('bc', i),
    truth: { coin: 'BTC', network: 'mainnet' },
    recorded: false,
  },
  {
    label: 'BTC mainnet 1... (no coin)',
    make: (i) => base58(0x00, i),
    truth: { coin: 'BTC', network: 'mainnet' },
    recorded: false,
  },
  {
    label: 'LTC regtest rltc1 (no coin)',
    make: (i) => segwit('rltc', i),
    truth: { coin: 'LTC', network: 'regtest' },
    recorded: false,
  },
  {
    label: 'LTC mainnet L... (no coin)',
    make: (i) => base58(0x30, i),
    truth: { coin: 'LTC', network: 'mainnet' },
    recorded: false,
  },
  {
    label: 'LTC mainnet ltc1 (recorded)',
    make: (i) => segwit('ltc', i),
    truth: { coin: 'LTC', network: 'mainnet' },
    recorded: true,
  },
  { label: 'XMR (recorded)', make: () => XMR, truth: { coin: 'XMR', network: 'mainnet' }, recorded: true },
  { label: 'XMR (no coin)', make: () => XMR, truth: { coin: 'XMR', network: 'mainnet' }, recorded: false },
  {
    label: 'KAS kaspasim: (no coin)',
    make: () => KAS,
    truth: { coin: 'KAS', network: 'regtest' },
    recorded: false,
  },
  { label: 'not an address', make: (i) => `garbage-${i}`, truth: null, recorded: false },
];

async function writeOldAccounts(db: Database, perKind: number): Promise<void> {
  for (const [k, kind] of KINDS.entries()) {
    const names = Array.from({ length: perKind }, (_, i) => `old${k}x${i}`);
    const addresses = names.map((_, i) => kind.make(i));
    await db.query(
      `WITH u AS (
         INSERT INTO users (username, email, password_hash)
         SELECT n, n || '@example.com', 'x' FROM unnest($1::text[]) AS n RETURNING id, username
       )
       INSERT INTO user_settings (user_id, payout_threshold, payout_address, payout_coin, pending_payout_address,
                                  pending_payout_coin, pending_payout_effective_at)
       SELECT u.id, '0.01', a.address, $3, CASE WHEN $4 THEN $5 END, CASE WHEN $4 THEN 'XMR' END,
              CASE WHEN $4 THEN now() + interval '1 day' END
         FROM u JOIN unnest($1::text[], $2::text[]) AS a(username, address) ON a.username = u.username`,
      [names, addresses, kind.recorded ? kind.truth?.coin : null, k % 2 === 1, XMR],
    );
  }
}

async function migrationPhase(report: Report, kind: DatabaseKind, perKind: number): Promise<void> {
  const handle = await openTestDatabase(
    kind,
    listMigrations().filter((m) => m.version < VERSION),
  );
  try {
    await writeOldAccounts(handle.db, perKind);
    const started = performance.now();
    await migrate(handle.db);
    const took = performance.now() - started;
    const rows = await handle.db.query<{
      coin: string;
      address: string | null;
      pending_address: string | null;
    }>('SELECT coin, address, pending_address FROM user_payout_settings');
    report.line(
      `  ${kind}: ${int(KINDS.length * perKind)} old accounts migrated in ${fixed(took, 0)} ms -> ${int(rows.rows.length)} per-coin rows`,
    );
    report.line(`  ${'old address'.padEnd(30)} ${'placed on'.padEnd(14)} payable there (isPayableAddress)`);
    for (const k of KINDS) {
      const sample = k.make(0);
      const placed = rows.rows.filter((r) => r.address === sample);
      const coins = [...new Set(placed.map((r) => r.coin))].join(',') || 'nowhere';
      const payable =
        k.truth === null
          ? '-'
          : placed.every(
                (r) => isCoin(r.coin) && isPayableAddress(r.coin, k.truth?.network ?? 'mainnet', sample),
              )
            ? 'yes'
            : 'NO';
      report.line(`  ${k.label.padEnd(30)} ${coins.padEnd(14)} ${payable}`);
    }
    const pendingXmr = rows.rows.filter((r) => r.coin === 'XMR' && r.pending_address === XMR).length;
    const expectedPending = KINDS.filter((_, i) => i % 2 === 1).length * perKind;
    report.line(
      `  pending XMR changes kept on XMR beside the address in force: ${int(pendingXmr)} of ${int(expectedPending)}`,
    );
  } finally {
    await handle.drop();
  }
}

/** The issue's sequence under the new rule: each coin keeps its own address and pending change. */
async function sequencePhase(report: Report): Promise<void> {
  const handle = await openTestDatabase('pglite');
  try {
    const user = await handle.db.query<{ id: number }>(
      "INSERT INTO users (username, email, password_hash) VALUES ('seq', 'seq@example.com', 'x') RETURNING id",
    );
    const userId = user.rows[0]?.id ?? 0;
    const repo = new PayoutSettingsRepository(handle.db);
    const now = Date.now();
    const save = async (coin: Coin, address: string): Promise<void> => {
      const current = (await repo.list(userId, new Date(now))).find((r) => r.coin === coin);
      await repo.setAddress(userId, coin, address, effectiveAtOf(current, address, 48, now));
    };
    await save('XMR', XMR);
    await save('XMR', `${XMR.slice(0, -1)}B`); // a change: pending for the hold
    await save('LTC', segwit('rltc', 1));
    const rows = await repo.list(userId, new Date(now));
    report.line('  XMR address, XMR change (pending), then an LTC address:');
    report.line(
      '    old rule (one address per account): the LTC save replaced the pending XMR change; LTC and XMR could not both be paid',
    );
    for (const r of rows)
      report.line(
        `    new rule: ${r.coin} in force ${r.address ? `${r.address.slice(0, 10)}…` : '-'}, pending ${r.pendingAddress ? `${r.pendingAddress.slice(0, 10)}… from ${r.pendingEffectiveAt?.toISOString()}` : '-'}`,
      );
  } finally {
    await handle.drop();
  }
}

export async function runEdgePayaddr(report: Report, argv: string[]): Promise<void> {
  const perKind = Number(argv.find((a) => a.startsWith('--per-kind='))?.split('=')[1] ?? 500);
  report.line(`== edge: one payout address per coin (issue 27) ==`);
  report.line(
    `Phase 1: migration 0675 on accounts written the old way (${int(perKind)} per kind, every other kind with a pending XMR change)`,
  );
  for (const kind of DATABASE_KINDS) await migrationPhase(report, kind, perKind);
  report.line('Phase 2: the issue sequence');
  await sequencePhase(report);
}
