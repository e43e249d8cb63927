import { afterEach, describe, expect, it } from 'vitest';
import { formatDifficulty as formatRevenueDifficulty } from '../features/revenue/format';
import {
  baseUnitsToDecimal,
  browserTimeZone,
  formatCoin,
  formatDate,
  formatDateTime,
  formatDifficulty,
  formatHashrate,
  setTimeZone,
  shortenAddress,
  shortenTx,
  timeZoneLabel,
} from './format';

describe('formatHashrate', () => {
  it('shows small rates in plain H/s without decimals', () => {
    expect(formatHashrate(0, 'en')).toBe('0 H/s');
    expect(formatHashrate(950, 'en')).toBe('950 H/s');
  });

  it('shows a rate under 1 H/s with two significant digits, never as 0 H/s', () => {
    expect(formatHashrate(0.437, 'en')).toBe('0.44 H/s');
    expect(formatHashrate(0.0052, 'ar')).toBe('0.0052 H/s');
  });

  it('picks the largest unit from kH/s up to EH/s', () => {
    expect(formatHashrate(4_300, 'en')).toBe('4.30 kH/s');
    expect(formatHashrate(1_234_567, 'en')).toBe('1.23 MH/s');
    expect(formatHashrate(9.5e9, 'en')).toBe('9.50 GH/s');
    expect(formatHashrate(120e12, 'en')).toBe('120.00 TH/s');
    expect(formatHashrate(3.2e15, 'en')).toBe('3.20 PH/s');
    expect(formatHashrate(650e18, 'en')).toBe('650.00 EH/s');
  });

  it('keeps EH/s for rates beyond the largest unit', () => {
    expect(formatHashrate(2e21, 'en')).toBe('2,000.00 EH/s');
  });

  it('uses Latin digits in Arabic so figures match units and addresses', () => {
    expect(formatHashrate(1_500_000, 'ar')).toMatch(/^1[.٫]50 MH\/s$/);
  });

  it('rejects a negative or non-finite rate with a clear error', () => {
    expect(() => formatHashrate(-1, 'en')).toThrow(/Not a hashrate/);
    expect(() => formatHashrate(Number.NaN, 'en')).toThrow(/Not a hashrate/);
  });
});

describe('formatCoin', () => {
  it('converts satoshis to BTC exactly, with no floating-point rounding', () => {
    expect(formatCoin('123456789', 'BTC', 'en')).toBe('1.23456789 BTC');
    expect(formatCoin('1', 'BTC', 'en')).toBe('0.00000001 BTC');
    expect(formatCoin('0', 'LTC', 'en')).toBe('0.00 LTC');
    expect(formatCoin('150000000', 'LTC', 'en')).toBe('1.50 LTC');
  });

  it('keeps every digit of amounts larger than a double can hold', () => {
    expect(formatCoin('2100000000000000123', 'BTC', 'en')).toBe('21,000,000,000.00000123 BTC');
    expect(baseUnitsToDecimal('9007199254740993', 8)).toBe('90071992.54740993');
  });

  it('handles negative amounts and 12-decimal Kadena', () => {
    expect(formatCoin('-50000000', 'BTC', 'en')).toBe('-0.50 BTC');
    expect(formatCoin('1000000000001', 'KDA', 'en')).toBe('1.000000000001 KDA');
  });

  it('converts XMR atomic units (12 decimals) exactly, in English and Arabic', () => {
    expect(formatCoin('600000000000', 'XMR', 'en')).toBe('0.60 XMR');
    expect(formatCoin('1', 'XMR', 'en')).toBe('0.000000000001 XMR');
    expect(formatCoin('18446744073709551617', 'XMR', 'ar')).toBe('18,446,744.073709551617 XMR');
  });

  it('rejects amounts that are not integer base units, and unknown coins', () => {
    expect(() => formatCoin('1.5', 'BTC', 'en')).toThrow(/Not an integer amount/);
    expect(() => formatCoin('abc', 'BTC', 'en')).toThrow(/Not an integer amount/);
    expect(() => formatCoin('100', 'XYZ', 'en')).toThrow(/Unknown coin/);
  });
});

describe('shortening', () => {
  it('shortens addresses longer than 10 characters to first 6 and last 4', () => {
    expect(shortenAddress('bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh')).toBe('bc1qxy...0wlh');
    expect(shortenAddress('1234567890')).toBe('1234567890');
  });

  it('shortens transaction ids to first 6 and last 6, or shows Pending...', () => {
    expect(shortenTx('f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16')).toBe(
      'f4184f...1e9e16',
    );
    expect(shortenTx(null)).toBe('Pending...');
    expect(shortenTx('', 'قيد الانتظار...')).toBe('قيد الانتظار...');
  });
});

describe('tiny difficulties', () => {
  it('print in scientific notation, the same in English and Arabic, instead of "0"', () => {
    expect(formatDifficulty(4.656542373906925e-10, 'en')).toBe('4.66e-10');
    expect(formatDifficulty(4.656542373906925e-10, 'ar')).toBe('4.66e-10');
    expect(formatRevenueDifficulty(3e-8)).toBe('3e-8');
    expect(formatDifficulty(36_762_000_000_000, 'en')).toBe('36.76T');
  });
});

describe('the time zone the miner chose', () => {
  afterEach(() => setTimeZone(null));

  it('shows every date, time and chart hour in the chosen zone, in both languages', () => {
    const at = '2026-11-27T21:30:00Z';
    setTimeZone('Asia/Riyadh');
    expect(formatDateTime(at, 'en')).toBe('Nov 28, 2026, 12:30 AM');
    expect(formatDate(at, 'en')).toBe('Nov 28, 2026');
    expect(timeZoneLabel('en', new Date(at))).toBe('GMT+3');
    setTimeZone('Africa/Casablanca');
    expect(formatDate(at, 'ar')).toBe(
      new Intl.DateTimeFormat('ar-u-nu-latn', { dateStyle: 'medium', timeZone: 'Africa/Casablanca' }).format(
        new Date(at),
      ),
    );
    expect(formatDateTime(at, 'en')).toBe('Nov 27, 2026, 10:30 PM');
  });

  it("follows the browser's own zone when none is chosen", () => {
    setTimeZone(null);
    const at = new Date('2026-11-27T21:30:00Z');
    expect(formatDateTime(at, 'en')).toBe(
      new Intl.DateTimeFormat('en', {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: browserTimeZone(),
      }).format(at),
    );
  });
});
