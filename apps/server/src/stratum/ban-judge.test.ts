import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { BanJudge, type JudgedConnection } from './ban-judge.js';
import { BanList, type AddressRecord, type BanSettings, type ShareWindow } from './bans.js';

const SETTINGS: BanSettings = {
  enabled: true,
  checkAfterShares: 10,
  invalidPercent: 50,
  durationSeconds: 600,
  connectionBanSeconds: 60,
  addressBanAfterConnections: 3,
  offenceWindowSeconds: 600,
};

class Connection implements JudgedConnection {
  readonly window: ShareWindow = { submits: 0, invalid: 0 };
  closed = false;
  closes = 0;
  constructor(
    readonly address: AddressRecord,
    readonly login: string,
  ) {}
  close(): void {
    this.closes++;
    this.closed = true;
  }
}

function court() {
  const bans = new BanList(SETTINGS);
  const sessions = new Set<Connection>();
  const judge = new BanJudge(bans, sessions, pino({ level: 'silent' }), (c) => [c.login]);
  const connect = (ip: string, login: string) => {
    const connection = new Connection(bans.admit(ip, 100) as AddressRecord, login);
    sessions.add(connection);
    return connection;
  };
  return { bans, judge, connect };
}

describe('the one ban judge of every Stratum port', () => {
  it('cuts a mostly-invalid connection once: its shares judged after the cut change nothing', () => {
    const { bans, judge, connect } = court();
    const flooder = connect('10.0.0.1', 'bad');
    for (let i = 0; i < 10; i++) judge.count(flooder, 'invalid');
    expect(flooder.closes).toBe(1);
    // Hashes that were running for it end now: no further count, no second decision.
    for (let i = 0; i < 50; i++) judge.count(flooder, 'invalid');
    expect(bans.counts).toEqual({ connection: 1, ip: 0 });
    expect(flooder.window).toEqual({ submits: 10, invalid: 10 });
  });

  it('never counts a refusal for the pool’s own capacity in the miner’s favour', () => {
    const { bans, judge, connect } = court();
    const flooder = connect('10.0.0.2', 'bad');
    // Five invalid shares among fifty "busy" refusals: before, the busy ones diluted the ratio to 9 %.
    for (let i = 0; i < 50; i++) judge.count(flooder, 'uncounted');
    for (let i = 0; i < 9; i++) judge.count(flooder, 'invalid');
    expect(flooder.closed).toBe(false);
    judge.count(flooder, 'valid');
    expect(flooder.closed).toBe(true);
    expect(bans.counts.connection).toBe(1);
  });

  it('bans an address at its third cut connection and closes the rest of it, one decision each', () => {
    const { bans, judge, connect } = court();
    const flooders = Array.from({ length: 4 }, (_, i) => connect('10.0.0.3', `bad${i}`));
    const honest = connect('10.0.0.4', 'good');
    for (let round = 0; round < 10; round++) for (const f of flooders) judge.count(f, 'invalid');
    for (let i = 0; i < 10; i++) judge.count(honest, 'valid');
    expect(flooders.every((f) => f.closed && f.closes === 1)).toBe(true);
    expect(honest.closed).toBe(false);
    expect(bans.counts.ip).toBe(1);
    expect(bans.counts.connection).toBeLessThanOrEqual(4);
    expect(bans.isBanned('10.0.0.3')).toBe(true);
  });
});
