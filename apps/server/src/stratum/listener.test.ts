import { EventEmitter } from 'node:events';
import type net from 'node:net';
import { describe, expect, it } from 'vitest';
import { hashrateFromDifficulty } from '../shares/hashrate.js';
import { markUseful, PortSeats, PortWork, seatLimits } from './listener.js';

/** A socket as the seats see it: an address, a close event, and destroy() that emits it. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  constructor(readonly remoteAddress: string) {
    super();
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('close');
  }
}

const socket = (ip: string): net.Socket => new FakeSocket(ip) as unknown as net.Socket;

function seats(maxConnections: number, maxPerAddress: number, idleMs = 60_000): PortSeats {
  const made = new PortSeats();
  made.limits = { maxConnections, maxPerAddress, idleMs };
  return made;
}

describe("a Stratum port's seats", () => {
  it('refuses an address past its share of the port and seats it again once one of its connections closes', () => {
    const port = seats(100, 2);
    const first = socket('10.0.0.1');
    expect(port.take(first, 0)).toBeDefined();
    expect(port.take(socket('10.0.0.1'), 0)).toBeDefined();
    expect(port.take(socket('10.0.0.1'), 0)).toBeUndefined();
    expect(port.take(socket('10.0.0.2'), 0)).toBeDefined();
    first.destroy();
    expect(port.take(socket('10.0.0.1'), 0)).toBeDefined();
    expect(port.counts.refusedAddress).toBe(1);
  });

  it('seats a new miner on a full port by closing the connection idle longest', () => {
    const port = seats(3, 3, 60_000);
    const older = socket('10.0.0.1');
    const newer = socket('10.0.0.1');
    port.take(older, 0);
    port.take(newer, 1_000);
    port.take(socket('10.0.0.2'), 2_000);
    const miner = socket('10.0.0.9');
    expect(port.take(miner, 70_000)).toBeDefined();
    expect((older as unknown as FakeSocket).destroyed).toBe(true);
    expect((newer as unknown as FakeSocket).destroyed).toBe(false);
    expect(port.size).toBe(3);
    expect(port.counts.evicted).toBe(1);
  });

  it('never closes a connection that sent a valid share within the window, nor one newer than it', () => {
    const port = seats(2, 2, 60_000);
    const mining = socket('10.0.0.1');
    port.take(mining, 0);
    port.take(socket('10.0.0.2'), 50_000);
    markUseful(mining, 40_000);
    expect(port.take(socket('10.0.0.3'), 90_000)).toBeUndefined();
    expect((mining as unknown as FakeSocket).destroyed).toBe(false);
    expect(port.counts.refusedFull).toBe(1);
    // Past the window since its last valid share, the idle one goes first, then the miner.
    expect(port.take(socket('10.0.0.3'), 111_000)).toBeDefined();
    expect((mining as unknown as FakeSocket).destroyed).toBe(true);
  });

  it('gives one address an eighth of the port by default (at least 32), never over the per-IP cap', () => {
    const stratum = (perAddress?: number) => ({
      maxConnectionsPerIp: 500,
      seats: { idleSeconds: 300, ...(perAddress === undefined ? {} : { perAddress }) },
    });
    expect(seatLimits(stratum(), 2_700)).toEqual({
      maxConnections: 2_700,
      maxPerAddress: 337,
      idleMs: 300_000,
    });
    expect(seatLimits(stratum(), 100).maxPerAddress).toBe(32);
    expect(seatLimits({ ...stratum(), maxConnectionsPerIp: 10 }, 2_700).maxPerAddress).toBe(10);
    expect(seatLimits(stratum(1_000), 2_700).maxPerAddress).toBe(1_000);
  });
});

describe("a port's own figures", () => {
  it('counts accepted shares per second over the last minute, and over the time since the port opened when that is shorter', () => {
    const work = new PortWork(1_000_000);
    for (let i = 0; i < 20; i++) work.add(1, 1_000_000 + i * 1_000);
    // 20 shares in the port's first 20 s: 1 a second, not 20 over a whole minute.
    expect(work.sharesPerSecond(1_020_000)).toBe(1);
    // At 1,200,000 ms (a bucket's start) the minute is the five whole 10 s buckets before it: the
    // shares of the port's first 20 s are older than that and no longer counted.
    expect(work.sharesPerSecond(1_200_000)).toBe(0);
    for (let i = 0; i < 100; i++) work.add(1, 1_150_000 + i * 500);
    expect(work.sharesPerSecond(1_200_000)).toBe(2);
  });

  it("reads the port's hashrate over the time its shares have come, at least a minute, at most 10", () => {
    const work = new PortWork(0);
    expect(work.hashrate('sha256d', 5_000)).toBe(0);
    for (let i = 0; i < 120; i++) work.add(2, 100_000 + i * 1_000);
    expect(work.hashrate('sha256d', 220_000)).toBeCloseTo(hashrateFromDifficulty(240, 120, 'sha256d'), 6);
  });
});
