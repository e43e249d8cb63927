// Drill phase NAME=family (issue 26, item 7): every payout address goes through its coin's family.
// The fault: registration and Settings checked an XMR address only against a shape
// (/^[A-Za-z0-9:]{20,120}$/), so "4" and 94 letters passed as a Monero address. Printed: for a
// corpus of Monero-shaped fakes, mistyped real addresses, other networks' and other families'
// addresses, and real ones, how many the old shape check would have let in, and how many the real
// API (startHttp over HTTP on 127.0.0.1, PostgreSQL when it answers, else PGlite) refused at
// registration, with which message in English and Arabic; then what one check costs per family.
import { encodeKaspaAddress } from '@manjam/protocol/kaspa';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { COINS, isPayableAddress, type Coin } from '@manjam/protocol';
import { ADDRESSES } from '../../packages/protocol/test/monero/test-fixtures.js';
import { parseConfig } from '../../apps/server/src/config/index.js';
import { PoolEvents } from '../../apps/server/src/events.js';
import { startHttp } from '../../apps/server/src/http/index.js';
import { chooseDatabase, openBenchDatabase } from './database.js';
import { Report, fixed, int, load } from './report.js';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** The check registration and Settings used for XMR before issue 26. */
const OLD_SHAPE_CHECK = /^[A-Za-z0-9:]{20,120}$/;
const BTC_REGTEST = 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn';

interface Case {
  label: string;
  coin: Coin;
  /** Whether the pool can really pay it (regtest pool). */
  payable: boolean;
  make: () => string;
}

function randomBase58(length: number): string {
  return Array.from({ length }, () => BASE58[randomInt(BASE58.length)]).join('');
}

/** The real address with one character (not the first) changed: the Keccak checksum breaks. */
function mistyped(address: string): string {
  const at = 1 + randomInt(address.length - 1);
  const old = address[at] ?? '1';
  const next = BASE58[(BASE58.indexOf(old) + 1 + randomInt(BASE58.length - 1)) % BASE58.length] ?? '1';
  return address.slice(0, at) + next + address.slice(at + 1);
}

const CASES: Case[] = [
  { label: 'XMR "4" + 94 letters', coin: 'XMR', payable: false, make: () => `4${'a'.repeat(94)}` },
  { label: 'XMR "4" + 94 random base58', coin: 'XMR', payable: false, make: () => `4${randomBase58(94)}` },
  {
    label: 'XMR real, one char changed',
    coin: 'XMR',
    payable: false,
    make: () => mistyped(ADDRESSES.mainnet.standard),
  },
  { label: 'XMR testnet address', coin: 'XMR', payable: false, make: () => ADDRESSES.testnet.standard },
  { label: 'XMR given a BTC address', coin: 'XMR', payable: false, make: () => BTC_REGTEST },
  { label: 'BTC given an XMR address', coin: 'BTC', payable: false, make: () => ADDRESSES.mainnet.standard },
  { label: 'XMR real standard', coin: 'XMR', payable: true, make: () => ADDRESSES.mainnet.standard },
  { label: 'XMR real subaddress', coin: 'XMR', payable: true, make: () => ADDRESSES.mainnet.subaddress },
  { label: 'XMR real integrated', coin: 'XMR', payable: true, make: () => ADDRESSES.mainnet.integrated },
  { label: 'BTC real regtest', coin: 'BTC', payable: true, make: () => BTC_REGTEST },
];

function parseOptions(argv: string[]): { perCase: number; checks: number } {
  const o = { perCase: 20, checks: 20_000 };
  for (const arg of argv) {
    const [key = '', value = ''] = arg.replace(/^--/, '').split('=');
    const name = key.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
    if (name in o && Number(value) > 0) o[name as keyof typeof o] = Number(value);
    else throw new Error(`unknown or invalid option ${arg}`);
  }
  return o;
}

interface Tally {
  /** XMR only: BTC and LTC were decoded for real before issue 26 too. */
  oldAccepted: number | '-';
  accepted: number;
  refused: number;
  messages: Set<string>;
}

async function register(
  url: string,
  coin: Coin,
  address: string,
  language: string,
): Promise<[number, string]> {
  const name = `fam${randomBytes(5).toString('hex')}`;
  const response = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': language },
    body: JSON.stringify({
      username: name,
      email: `${name}@example.com`,
      password: 'longenough1',
      preferredCoin: coin,
      walletAddress: address,
    }),
  });
  const body = (await response.json()) as { error?: { fields?: Record<string, string> } };
  return [response.status, body.error?.fields?.walletAddress ?? ''];
}

async function registrationPhase(report: Report, url: string, perCase: number): Promise<void> {
  report.line(
    `case                              sent  old-XMR-check-in  API-accepted  API-refused  message (en | ar)`,
  );
  for (const c of CASES) {
    const t: Tally = {
      oldAccepted: c.coin === 'XMR' ? 0 : '-',
      accepted: 0,
      refused: 0,
      messages: new Set(),
    };
    for (let i = 0; i < perCase; i++) {
      const address = c.make();
      if (typeof t.oldAccepted === 'number' && OLD_SHAPE_CHECK.test(address)) t.oldAccepted += 1;
      const [status, message] = await register(url, c.coin, address, i % 2 === 0 ? 'en' : 'ar');
      if (status === 202) t.accepted += 1;
      else t.refused += 1;
      if (message) t.messages.add(message);
    }
    const verdict = c.payable ? t.accepted === perCase : t.refused === perCase;
    report.line(
      `${c.label.padEnd(32)} ${String(perCase).padStart(5)}  ${String(t.oldAccepted).padStart(16)}  ${String(t.accepted).padStart(12)}  ${String(t.refused).padStart(11)}  ${[...t.messages].join(' | ') || '-'}${verdict ? '' : '   <- NOT AS EXPECTED'}`,
    );
  }
}

function costPhase(report: Report, checks: number): void {
  const samples: Record<Coin, string[]> = {
    BTC: [BTC_REGTEST, `rb1q${randomBase58(38).toLowerCase()}`],
    LTC: ['rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7k693xs3', `rltc1q${randomBase58(38).toLowerCase()}`],
    XMR: [ADDRESSES.mainnet.standard, `4${randomBase58(94)}`],
    KAS: [
      encodeKaspaAddress({ network: 'simnet', kind: 'pubkey', payload: new Uint8Array(32).fill(7) }),
      `kaspasim:q${randomBase58(60).toLowerCase()}`,
    ],
  };
  for (const coin of COINS) {
    const inputs = samples[coin];
    let payable = 0;
    const started = performance.now();
    for (let i = 0; i < checks; i++)
      if (isPayableAddress(coin, 'regtest', inputs[i % inputs.length] ?? '')) payable += 1;
    const micros = ((performance.now() - started) * 1000) / checks;
    report.line(
      `check ${coin} (regtest): ${int(checks)} checks, ${int(payable)} payable, ${fixed(micros, 2)} µs per check`,
    );
  }
}

export async function runEdgeFamily(report: Report, argv: string[]): Promise<void> {
  const o = parseOptions(argv);
  const kind = await chooseDatabase(undefined);
  const dataDir = mkdtempSync(join(tmpdir(), 'manjam-edge-family-'));
  const database = await openBenchDatabase(kind);
  const config = parseConfig({
    dataDir,
    publicHost: 'pool.test',
    http: { host: '127.0.0.1', port: 0, webDist: '' },
    auth: { secret: randomBytes(24).toString('hex') },
    log: { level: 'silent' },
  });
  const http = await startHttp(
    {
      config,
      db: database.db,
      logger: pino({ level: 'silent' }),
      events: new PoolEvents(),
      health: () => Promise.resolve({ ok: true, database: { ok: true, kind }, chains: [], alerts: [] }),
      pool: { host: 'pool.test', ports: () => [], hashrate: () => null },
    },
    // Registrations are the figure here, not the per-route request limit (issue 25's area).
    {
      rateLimits: {
        auth: { max: 1_000_000, timeWindow: 60_000 },
        search: { max: 1_000, timeWindow: 60_000 },
      },
    },
  );
  try {
    const networks = COINS.map((coin) => `${coin} ${config.chains[coin].network}`).join(', ');
    report.line(`edge-family — ${new Date().toISOString()} — ${kind}, load ${load()}; networks: ${networks}`);
    await registrationPhase(report, http.url, o.perCase);
    costPhase(report, o.checks);
  } finally {
    await http.stop();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
