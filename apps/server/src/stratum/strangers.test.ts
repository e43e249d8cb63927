import { describe, expect, it, vi } from 'vitest';
import type { ShareSink } from '../shares/sink.js';
import { minerRef, type AcceptedShare } from '../shares/types.js';
import { AddressRecord } from './bans.js';
import { OwnedSink, WorkerOwners } from './strangers.js';

const bob = { kind: 'user', userId: 7, username: 'bob' } as const;
const rig1 = () => minerRef('BTC', bob, 'rig1');
const share = (miner: ReturnType<typeof rig1>): AcceptedShare => ({
  miner,
  difficulty: 1,
  actualDifficulty: 1,
  networkDifficulty: 1,
  height: 1,
  scheme: 'pps-plus',
  atMs: 0,
});

function sink(): ShareSink & { rejected: string[] } {
  const rejected: string[] = [];
  return {
    rejected,
    start: () => Promise.resolve(),
    addAccepted: vi.fn(),
    addRejected: (miner) => void rejected.push(miner.workerKey),
    addBlock: () => Promise.resolve(),
    refusal: () => undefined,
    backlog: () => 0,
    stop: () => Promise.resolve(),
  };
}

describe('who speaks for a worker', () => {
  it("takes a new worker's first login as its own", () => {
    const owners = new WorkerOwners();
    expect(owners.bind(rig1(), new AddressRecord('10.0.0.1', 0))).toBe(true);
  });

  it("keeps a stranger's rejects and presence out of a worker that mines from another address", () => {
    const owners = new WorkerOwners();
    const out = sink();
    const shares = new OwnedSink(out, owners);
    const own = rig1();
    owners.bind(own, new AddressRecord('10.0.0.1', 0));
    expect(owners.showConnected(own)).toBe(true);
    shares.addAccepted(share(own));
    const strangerAddress = new AddressRecord('10.6.6.6', 0);
    const stranger = rig1();
    expect(owners.bind(stranger, strangerAddress)).toBe(false);
    expect(owners.showConnected(stranger)).toBe(false);
    for (let i = 0; i < 60; i++) shares.addRejected(stranger, 'invalid', 0);
    expect(owners.showDisconnected(stranger)).toBe(false);
    expect(out.rejected).toEqual([]);
    expect(strangerAddress.strangerRejects).toBe(60);
    expect(owners.counts).toEqual({ strangerLogins: 1, strangerRejects: 60 });
    // The rig's own rejects are still its own.
    shares.addRejected(own, 'invalid', 0);
    expect(out.rejected).toEqual([own.workerKey]);
  });

  it('takes another login from the address the worker mines from as its own, in any case', () => {
    const owners = new WorkerOwners();
    const own = rig1();
    owners.bind(own, new AddressRecord('10.0.0.1', 0));
    owners.accepted(own);
    expect(owners.bind(minerRef('BTC', bob, 'RIG1'), new AddressRecord('10.0.0.1', 0))).toBe(true);
  });

  it("makes a stranger the worker's own once a share of its own is accepted (its work is the account's)", () => {
    const owners = new WorkerOwners();
    const own = rig1();
    owners.bind(own, new AddressRecord('10.0.0.1', 0));
    owners.accepted(own);
    const moved = rig1();
    owners.bind(moved, new AddressRecord('10.0.0.2', 0));
    expect(owners.speaksFor(moved)).toBe(false);
    owners.accepted(moved);
    expect(owners.speaksFor(moved)).toBe(true);
    expect(owners.rejected(moved)).toBe(true);
    // Its connecting was not shown, so neither is its leaving.
    expect(owners.showDisconnected(moved)).toBe(false);
    expect(owners.bind(rig1(), new AddressRecord('10.0.0.2', 0))).toBe(true);
  });

  it('remembers a bounded number of workers, forgetting the least recently mined', () => {
    const owners = new WorkerOwners(2);
    for (const name of ['a', 'b', 'c']) {
      const miner = minerRef('BTC', bob, name);
      owners.bind(miner, new AddressRecord('10.0.0.1', 0));
      owners.accepted(miner);
    }
    expect(owners.size).toBe(2);
    expect(owners.bind(minerRef('BTC', bob, 'a'), new AddressRecord('10.9.9.9', 0))).toBe(true);
    expect(owners.bind(minerRef('BTC', bob, 'c'), new AddressRecord('10.9.9.9', 0))).toBe(false);
  });
});
