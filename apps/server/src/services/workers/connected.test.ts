import { describe, expect, it } from 'vitest';
import { PoolEvents } from '../../events.js';
import { ConnectedWorkers, connectedKey } from './connected.js';
import { PENDING_WORKERS_SHOWN, pendingWorkers, toPendingWorker } from './pending.js';

/** What a login's event carries besides who it is (not read here). */
const AGENTLESS = { payeeKey: 'BTC:u:7', worker: 'w', agent: '' };

describe('connected workers', () => {
  it('knows a worker from its first authorized session until its last one closes, per user and in any case', () => {
    const events = new PoolEvents();
    let now = Date.parse('2026-11-25T10:00:00Z');
    const connected = new ConnectedWorkers(events, () => now);
    const session = (
      type: 'worker.connected' | 'worker.disconnected',
      userId: number | null,
      login: string,
    ) => events.emit(type, { ...AGENTLESS, coin: 'BTC', workerId: null, userId, login });

    session('worker.connected', 7, 'amal.Rig1');
    now += 60_000;
    session('worker.connected', 7, 'amal.rig1');
    session('worker.connected', 7, 'amal');
    session('worker.connected', null, 'bcrt1qwallet.rig1');
    expect(connected.connectedSince(7, 'RIG1')?.toISOString()).toBe('2026-11-25T10:00:00.000Z');
    expect(connected.connectedSince(7, 'default')).not.toBeNull();
    expect(connected.connectedSince(8, 'rig1')).toBeNull();

    session('worker.disconnected', 7, 'amal.rig1');
    expect(connected.connectedSince(7, 'rig1')).not.toBeNull();
    session('worker.disconnected', 7, 'amal.RIG1');
    expect(connected.connectedSince(7, 'rig1')).toBeNull();
    session('worker.disconnected', 7, 'amal.rig1');
    expect(connected.connectedSince(7, 'rig1')).toBeNull();

    connected.close();
    session('worker.connected', 7, 'amal.rig2');
    expect(connected.connectedSince(7, 'rig2')).toBeNull();
  });
});

describe('connected workers without a row', () => {
  it('lists each coin and name once, the longest connected first, and changes its stamp with every session', () => {
    const events = new PoolEvents();
    let now = Date.parse('2026-11-25T10:00:00Z');
    const connected = new ConnectedWorkers(events, () => now);
    const emit = (type: 'worker.connected' | 'worker.disconnected', coin: 'BTC' | 'LTC', login: string) =>
      events.emit(type, { ...AGENTLESS, coin, workerId: null, userId: 7, login });
    expect(connected.stamp(7)).toBe(0);
    emit('worker.connected', 'LTC', 'amal.Rig1');
    now += 1_000;
    emit('worker.connected', 'BTC', 'amal.rig1');
    emit('worker.connected', 'BTC', 'amal.RIG1');
    const stamp = connected.stamp(7);
    expect(connected.ofUser(7).map((p) => [p.coin, p.name, p.sessions])).toEqual([
      ['LTC', 'Rig1', 1],
      ['BTC', 'rig1', 2],
    ]);
    emit('worker.disconnected', 'LTC', 'amal.rig1');
    expect(connected.stamp(7)).not.toBe(stamp);
    expect(connected.ofUser(7).map((p) => p.coin)).toEqual(['BTC']);
    // Test Connection asks by name on any coin.
    expect(connected.connectedSince(7, 'rig1')?.toISOString()).toBe('2026-11-25T10:00:01.000Z');
  });

  it('leaves out stored workers (deleted ones too) and lists at most PENDING_WORKERS_SHOWN', () => {
    const events = new PoolEvents();
    const connected = new ConnectedWorkers(events, () => 0);
    for (let i = 0; i < PENDING_WORKERS_SHOWN + 50; i++)
      events.emit('worker.connected', {
        ...AGENTLESS,
        coin: 'BTC',
        workerId: null,
        userId: 7,
        login: `amal.w${i}`,
      });
    const stored = new Set([connectedKey('BTC', 'W0'), connectedKey('BTC', 'w1')]);
    const pending = pendingWorkers(connected.ofUser(7), stored);
    expect(pending).toHaveLength(PENDING_WORKERS_SHOWN);
    expect(pending.map((p) => p.name).slice(0, 2)).toEqual(['w2', 'w3']);
    expect(pendingWorkers(connected.ofUser(7), stored, (p) => p.name === 'w140').map((p) => p.name)).toEqual([
      'w140',
    ]);
    expect(toPendingWorker(pending[0] as (typeof pending)[number], 'amal')).toMatchObject({
      id: null,
      fullName: 'amal.w2',
      status: 'connected',
      type: 'asic',
      algorithm: 'sha256',
    });
    // An XMR login (coins/monero/stratum/login.ts emits the same event) is listed as the CPU it is.
    events.emit('worker.connected', {
      ...AGENTLESS,
      coin: 'XMR',
      workerId: null,
      userId: 8,
      login: 'amal.laptop',
    });
    const [xmr] = pendingWorkers(connected.ofUser(8), new Set());
    expect(xmr && toPendingWorker(xmr, 'amal')).toMatchObject({
      coin: 'XMR',
      type: 'cpu',
      algorithm: 'randomx',
    });
  });
});
