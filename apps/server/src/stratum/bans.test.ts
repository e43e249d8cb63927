import { describe, expect, it } from 'vitest';
import { BanList, resetWindow, type BanSettings } from './bans.js';

const SETTINGS: BanSettings = {
  enabled: true,
  checkAfterShares: 100,
  invalidPercent: 50,
  durationSeconds: 600,
  connectionBanSeconds: 60,
  addressBanAfterConnections: 3,
  offenceWindowSeconds: 600,
};

describe('fair bans', () => {
  it('caps open connections per address and frees a place when one closes', () => {
    const bans = new BanList(SETTINGS);
    const a = bans.admit('10.0.0.1', 2, 0);
    expect(bans.admit('10.0.0.1', 2, 0)).toBe(a);
    expect(bans.admit('10.0.0.1', 2, 0)).toBeUndefined();
    expect(bans.admit('10.0.0.2', 2, 0)).toBeDefined();
    bans.release(a!, 0);
    expect(bans.admit('10.0.0.1', 2, 0)).toBe(a);
  });

  it('refuses an offending login on that address only, for the connection ban time', () => {
    const bans = new BanList(SETTINGS);
    const record = bans.admit('10.0.0.1', 10, 0)!;
    expect(bans.offend(record, ['bad.rig'], 1_000)).toBe(false);
    expect(bans.isLoginBanned('10.0.0.1', 'bad.rig', 2_000)).toBe(true);
    expect(bans.isLoginBanned('10.0.0.1', 'good.rig', 2_000)).toBe(false);
    expect(bans.isLoginBanned('10.0.0.2', 'bad.rig', 2_000)).toBe(false);
    expect(bans.isLoginBanned('10.0.0.1', 'bad.rig', 61_001)).toBe(false);
    expect(bans.isBanned('10.0.0.1', 2_000)).toBe(false);
    expect(bans.counts).toEqual({ connection: 1, ip: 0 });
  });

  it('bans the whole address only at the third offending connection within the window', () => {
    const bans = new BanList(SETTINGS);
    const record = bans.admit('10.0.0.1', 10, 0)!;
    expect(bans.offend(record, ['a'], 0)).toBe(false);
    // The first offence is out of the 600 s window by now.
    expect(bans.offend(record, ['b'], 601_000)).toBe(false);
    expect(bans.offend(record, ['c'], 602_000)).toBe(false);
    expect(bans.offend(record, ['d'], 603_000)).toBe(true);
    expect(bans.isBanned('10.0.0.1', 604_000)).toBe(true);
    expect(bans.admit('10.0.0.1', 10, 604_000)).toBeUndefined();
    expect(bans.isBanned('10.0.0.1', 603_000 + 600_001)).toBe(false);
    expect(bans.counts).toEqual({ connection: 4, ip: 1 });
  });

  it('judges a window only once it holds enough submits, and stale-free invalid shares at the threshold', () => {
    const bans = new BanList(SETTINGS);
    const window = { submits: 99, invalid: 99 };
    expect(bans.due(window)).toBe(false);
    window.submits = 100;
    expect(bans.due(window)).toBe(true);
    window.invalid = 49;
    expect(bans.mostlyInvalid(window)).toBe(false);
    window.invalid = 50;
    expect(bans.mostlyInvalid(window)).toBe(true);
    resetWindow(window);
    expect(window).toEqual({ submits: 0, invalid: 0 });
    expect(new BanList({ ...SETTINGS, enabled: false }).due({ submits: 1_000, invalid: 1_000 })).toBe(false);
  });

  it('keeps an address record across reconnects until it has been quiet for the offence window', () => {
    const bans = new BanList(SETTINGS);
    const record = bans.admit('10.0.0.1', 10, 0)!;
    record.submits = 99;
    bans.release(record, 1_000);
    bans.sweep(500_000);
    expect(bans.admit('10.0.0.1', 10, 500_000)?.submits).toBe(99);
    bans.release(record, 500_000);
    bans.offend(record, ['x'], 500_000);
    bans.sweep(1_200_000);
    expect(bans.size).toEqual({ addresses: 0, fingerprints: 0 });
  });
});
