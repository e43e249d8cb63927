import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  accountAlgorithmOf,
  addMinerAlgorithmsOf,
  addressInvalidKey,
  ALGORITHM_PAGE_IDS,
  changeSchema,
  coinColourOf,
  DEVICE_TYPES,
  editMinerAlgorithms,
  GUIDE_TABS,
  guideAlgorithmsOf,
  idParamsSchema,
  MAX_ROW_ID,
  languageFromHeader,
  registerRequestSchema,
  translateMessage,
  MESSAGES,
  MESSAGES_AR,
  PAYOUT_FAILURES,
  payoutSchema,
  POOL_COINS,
  PORT_TABLE,
  type PortTableRow,
  settingsUpdateSchema,
  unsettledSchema,
} from './index.js';

function fieldMessages(result: z.ZodSafeParseResult<unknown>): Record<string, string> {
  const fields: Record<string, string> = {};
  if (result.success) return fields;
  for (const issue of result.error.issues) {
    const key = issue.path.join('.');
    fields[key] ??= issue.message;
  }
  return fields;
}

describe('registration schema', () => {
  it('reports the seed messages for missing fields', () => {
    const fields = fieldMessages(registerRequestSchema.safeParse({}));
    expect(fields).toMatchObject({
      username: 'Username is required',
      email: 'Email is required',
      password: 'Password is required',
    });
  });

  it('reports short username, bad email, short password and mismatched confirmation', () => {
    const fields = fieldMessages(
      registerRequestSchema.safeParse({
        username: 'ab',
        email: 'nope',
        password: 'short',
        confirmPassword: 'other',
        preferredCoin: 'BTC',
      }),
    );
    expect(fields).toEqual({
      username: 'Username must be at least 3 characters',
      email: 'Please enter a valid email',
      password: 'Password must be at least 8 characters',
      confirmPassword: 'Passwords do not match',
    });
    const mismatch = fieldMessages(
      registerRequestSchema.safeParse({
        username: 'abc',
        email: 'a@b.co',
        password: 'longenough',
        confirmPassword: 'different',
      }),
    );
    expect(mismatch).toEqual({ confirmPassword: 'Passwords do not match' });
  });

  it('defaults the coin to BTC, trims the username and strips unknown fields', () => {
    const parsed = registerRequestSchema.parse({
      username: ' miner ',
      email: 'a@b.co',
      password: 'longenough',
      isAdmin: true,
    });
    expect(parsed).toEqual({
      username: 'miner',
      email: 'a@b.co',
      password: 'longenough',
      walletAddress: null,
      preferredCoin: 'BTC',
    });
  });
});

describe('messages', () => {
  it('has an Arabic text for every English message', () => {
    for (const key of Object.keys(MESSAGES))
      expect(MESSAGES_AR[key as keyof typeof MESSAGES]).toMatch(/[\u0600-\u06FF]/);
    expect(translateMessage('Username is required', 'ar')).toBe('اسم المستخدم مطلوب');
    expect(translateMessage('Username is required', 'en')).toBe('Username is required');
  });

  it('says which coin a payout address was refused for, in English and Arabic', () => {
    expect(MESSAGES[addressInvalidKey('KAS')]).toBe('Please enter a valid KAS address');
    expect(translateMessage('Please enter a valid XMR address', 'ar')).toBe('يرجى إدخال عنوان XMR صالح');
    expect(POOL_COINS.map((coin) => MESSAGES[addressInvalidKey(coin)])).toEqual(
      POOL_COINS.map((coin) => `Please enter a valid ${coin} address`),
    );
  });

  it('picks Arabic only when Accept-Language prefers it', () => {
    expect(languageFromHeader('ar')).toBe('ar');
    expect(languageFromHeader('ar-SA,ar;q=0.9,en;q=0.8')).toBe('ar');
    expect(languageFromHeader('en-US,ar;q=0.5')).toBe('en');
    expect(languageFromHeader('fr, ar;q=0.4')).toBe('ar');
    expect(languageFromHeader(undefined)).toBe('en');
  });
});

describe('other schemas', () => {
  it('accepts signed percent changes only in the agreed form', () => {
    for (const ok of ['+12.5%', '-3.0%', '0.0%', '+100.0%'])
      expect(changeSchema.safeParse(ok).success).toBe(true);
    for (const bad of ['12.5%', '+1.25%', 'NaN%']) expect(changeSchema.safeParse(bad).success).toBe(false);
  });

  it('rejects a settings update of the wrong type with a field message', () => {
    expect(fieldMessages(settingsUpdateSchema.safeParse({ darkMode: 'yes', theme: 'neon' }))).toEqual({
      darkMode: 'Must be true or false',
      theme: 'Invalid value',
    });
  });

  it('takes a path id up to PostgreSQL integer range and calls one past it too big', () => {
    expect(MAX_ROW_ID).toBe(2 ** 31 - 1);
    expect(idParamsSchema.parse({ id: '2147483647' })).toEqual({ id: 2_147_483_647 });
    for (const beyond of ['2147483648', '99999999999999999999']) {
      const result = idParamsSchema.safeParse({ id: beyond });
      expect(result.success).toBe(false);
      expect(result.error?.issues.every((issue) => issue.code === 'too_big')).toBe(true);
    }
    expect(idParamsSchema.safeParse({ id: 'abc' }).error?.issues[0]?.code).toBe('invalid_type');
  });
});

describe('payout failure reasons and the age of money figures', () => {
  const failed = {
    id: 7,
    date: '2026-11-27T03:00:00.000Z',
    amount: '133947000000000',
    coin: 'BTC',
    txId: null,
    status: 'failed',
    address: 'rb1qexample',
    confirmations: 0,
  };

  it('carries why a failed payout sent nothing, one of the named reasons or null', () => {
    for (const failure of PAYOUT_FAILURES)
      expect(payoutSchema.parse({ ...failed, failure }).failure).toBe(failure);
    expect(payoutSchema.parse({ ...failed, failure: null }).failure).toBeNull();
    expect(payoutSchema.safeParse({ ...failed, failure: 'wallet empty' }).success).toBe(false);
    expect(payoutSchema.safeParse(failed).success).toBe(false);
  });

  it('says up to when credits are counted and whether they are behind', () => {
    const figures = {
      accrued: '0',
      accruedSince: '2026-11-28T00:00:00.000Z',
      immature: '0',
      immatureBlocks: 0,
    };
    expect(
      unsettledSchema.parse({ ...figures, creditedUpTo: '2026-11-28T14:05:00.000Z', creditsBehind: true }),
    ).toMatchObject({ creditedUpTo: '2026-11-28T14:05:00.000Z', creditsBehind: true });
    expect(
      unsettledSchema.parse({ ...figures, creditedUpTo: null, creditsBehind: false }).creditedUpTo,
    ).toBeNull();
    expect(unsettledSchema.safeParse(figures).success).toBe(false);
  });
});

describe('the port table', () => {
  it('gives each hashed algorithm the account id miners carry (blake2s is kadena, kheavyhash is kaspa)', () => {
    expect(accountAlgorithmOf('sha256')).toBe('sha256');
    expect(accountAlgorithmOf('blake2s')).toBe('kadena');
    expect(accountAlgorithmOf('kheavyhash')).toBe('kaspa');
    expect(accountAlgorithmOf('etchash')).toBe('ethash');
  });

  it('offers each device the algorithms its rows name, at distinct places, and only algorithms miners carry', () => {
    expect(guideAlgorithmsOf('asic')).toEqual(['sha256', 'scrypt', 'kaspa']);
    expect(guideAlgorithmsOf('gpu')).toEqual(['kaspa', 'randomx', 'scrypt', 'ethash']);
    expect(guideAlgorithmsOf('cpu')).toEqual(['randomx', 'kaspa']);
    expect(addMinerAlgorithmsOf('asic')).toEqual(['sha256', 'scrypt', 'kadena', 'kaspa']);
    expect(addMinerAlgorithmsOf('gpu')).toEqual(['kadena', 'kaspa']);
    expect(addMinerAlgorithmsOf('cpu')).toEqual(['kaspa']);
    expect(editMinerAlgorithms()).toEqual([
      'sha256',
      'scrypt',
      'ethash',
      'kadena',
      'kaspa',
      'equihash',
      'octopus',
      'filecoin',
    ]);
    const rows: readonly PortTableRow[] = PORT_TABLE;
    const offered = rows.filter(
      (row) =>
        Object.keys(row.guide.devices).length > 0 || row.forms.add.length > 0 || row.forms.edit !== null,
    );
    expect(offered.filter((row) => row.account === null)).toEqual([]);
    for (const device of DEVICE_TYPES) {
      const places = rows.flatMap((row) => row.guide.devices[device] ?? []).sort((a, b) => a - b);
      expect(places).toEqual(places.map((_, i) => i + 1));
    }
    const edits = rows.flatMap((row) => row.forms.edit ?? []).sort((a, b) => a - b);
    expect(edits).toEqual(edits.map((_, i) => i + 1));
  });

  it('gives a page of its own to SHA-256, Scrypt, Blake2s, kHeavyHash and RandomX, by account id', () => {
    expect(ALGORITHM_PAGE_IDS).toEqual(['sha256', 'scrypt', 'kadena', 'kaspa', 'randomx']);
  });

  it('gives each coin the revenue tables mark its brand colour, and a coin without one none', () => {
    expect(coinColourOf('BTC')).toBe('#f7931a');
    expect(coinColourOf('KAS')).toBe('#49eacb');
    expect(coinColourOf('DOGE')).toBeUndefined();
    expect(coinColourOf('NOPE')).toBeUndefined();
  });

  it('lists every guide tab a row names, and each tab but "all" has a row', () => {
    const tabs = new Set(PORT_TABLE.map((row) => row.guide.tab));
    expect(GUIDE_TABS.filter((tab) => tab !== 'all' && !tabs.has(tab))).toEqual([]);
    expect([...tabs].filter((tab) => !GUIDE_TABS.includes(tab))).toEqual([]);
  });
});
