import { describe, expect, it } from 'vitest';
import { PoolEvents } from '../../events.js';
import { ConnectedWorkers } from './connected.js';

describe('connected workers', () => {
  it('knows a worker from its first authorized session until its last one closes, per user and in any case', () => {
    const events = new PoolEvents();
    let now = Date.parse('2026-11-25T10:00:00Z');
    const connected = new ConnectedWorkers(events, () => now);
    const session = (
      type: 'worker.connected' | 'worker.disconnected',
      userId: number | null,
      login: string,
    ) => events.emit(type, { coin: 'BTC', workerId: null, userId, login });

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
