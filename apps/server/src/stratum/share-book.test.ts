import pino from 'pino';
import { describe, expect, it } from 'vitest';
import {
  REJECT_REASONS,
  minerRef,
  type AcceptedShare,
  type MinerRef,
  type RejectReason,
} from '../shares/types.js';
import { HashrateTracker } from '../shares/hashrate.js';
import { BanJudge } from './ban-judge.js';
import { BanList, type AddressRecord, type BanSettings, type ShareWindow } from './bans.js';
import { REJECTION_KINDS, REJECTION_RULES, STRATUM_V1_REFUSALS } from './rejections.js';
import { ShareBook, portFigures, shareStats, type BookedConnection } from './share-book.js';

const SETTINGS: BanSettings = {
  enabled: true,
  checkAfterShares: 4,
  invalidPercent: 50,
  durationSeconds: 600,
  connectionBanSeconds: 60,
  addressBanAfterConnections: 3,
  offenceWindowSeconds: 600,
};

class Connection implements BookedConnection {
  readonly window: ShareWindow = { submits: 0, invalid: 0 };
  readonly socket = { cork: () => undefined, uncork: () => undefined, destroy: () => undefined };
  closed = false;
  constructor(readonly address: AddressRecord) {}
  close(): void {
    this.closed = true;
  }
}

class Sink {
  readonly events: string[] = [];
  readonly rejected: RejectReason[] = [];
  addAccepted(share: Omit<AcceptedShare, 'miner'> & { miner: MinerRef<'XMR'> }): void {
    this.events.push(`accepted ${share.difficulty}`);
  }
  addRejected(_miner: MinerRef<'XMR'>, reason: RejectReason): void {
    this.rejected.push(reason);
  }
}

function book() {
  const bans = new BanList(SETTINGS);
  const sessions = new Set<Connection>();
  const sink = new Sink();
  const stats = shareStats();
  const judge = new BanJudge(bans, sessions, pino({ level: 'silent' }), () => ['rig']);
  const connection = new Connection(bans.admit('10.0.0.1', 10) as AddressRecord);
  sessions.add(connection);
  return { book: new ShareBook(stats, sink, judge), stats, sink, connection };
}

const miner = minerRef('XMR', { kind: 'wallet', address: '4abc' }, 'rig');

describe('the one rejection vocabulary', () => {
  it('keeps in the share log exactly the reasons the shares table knows, and nothing a miner is not shown', () => {
    const logged = REJECTION_KINDS.map((kind) => REJECTION_RULES[kind].logAs).filter((r) => r !== null);
    expect(logged).toEqual([...REJECT_REASONS]);
  });

  it('counts stale shares and the pool being busy neither for nor against a miner, every other kind as invalid', () => {
    const verdicts = Object.fromEntries(REJECTION_KINDS.map((kind) => [kind, REJECTION_RULES[kind].ban]));
    expect(verdicts).toEqual({
      stale: 'uncounted',
      duplicate: 'invalid',
      low_difficulty: 'invalid',
      invalid: 'invalid',
      unauthorized: 'invalid',
      not_subscribed: 'invalid',
      busy: 'uncounted',
    });
  });

  it('answers each kind with the Stratum V1 code a V1 or Kaspa miner expects', () => {
    const codes = Object.fromEntries(REJECTION_KINDS.map((kind) => [kind, STRATUM_V1_REFUSALS[kind][0]]));
    expect(codes).toEqual({
      stale: 21,
      duplicate: 22,
      low_difficulty: 23,
      invalid: 20,
      unauthorized: 24,
      not_subscribed: 25,
      busy: 20,
    });
  });
});

describe('the share book', () => {
  it('counts a refusal by kind, logs only the shares of a known miner, and cuts a connection that sends mostly invalid ones', () => {
    const { book: shares, stats, sink, connection } = book();
    shares.refused(connection, miner, 'stale');
    shares.refused(connection, undefined, 'unauthorized');
    shares.refused(connection, miner, 'busy');
    shares.refused(connection, miner, 'duplicate');
    expect(sink.rejected).toEqual(['stale', 'duplicate']);
    expect(stats.rejected).toMatchObject({ stale: 1, unauthorized: 1, busy: 1, duplicate: 1, invalid: 0 });
    // Two counted so far (unauthorized, duplicate): two more invalid ones make four, all invalid.
    expect(connection.closed).toBe(false);
    shares.refused(connection, miner, 'low_difficulty');
    shares.refused(connection, miner, 'busy', 'invalid');
    expect(connection.closed).toBe(true);
  });

  it('gives an accepted share to the sink before the miner is answered, then to the hashrate', () => {
    const { book: shares, stats, sink, connection } = book();
    const tracker = new HashrateTracker('randomx');
    const now = Date.now();
    const share = {
      miner,
      difficulty: 1000,
      actualDifficulty: 5000,
      networkDifficulty: 1e9,
      height: 10,
      scheme: 'pps-plus' as const,
      atMs: now,
    };
    shares.accepted(connection, share, tracker, () => sink.events.push('reply'));
    expect(sink.events).toEqual(['accepted 1000', 'reply']);
    expect(stats.accepted).toBe(1);
    expect(tracker.live(miner.workerKey, now).bestDifficulty).toBe(5000);
  });

  it('waits for every block being submitted before it says it is settled', async () => {
    const { book: shares, stats } = book();
    let recorded = false;
    shares.block(new Promise<void>((resolve) => setTimeout(() => ((recorded = true), resolve()), 20)));
    expect(stats.blocks).toBe(1);
    await shares.settled();
    expect(recorded).toBe(true);
  });

  it("sums a family's ports into one figure per rejection kind, every kind listed", () => {
    const a = shareStats();
    const b = shareStats();
    a.accepted = 3;
    a.rejected.stale = 1;
    b.accepted = 2;
    b.rejected.stale = 2;
    b.rejected.busy = 4;
    expect(
      portFigures([
        { connections: 5, stats: a },
        { connections: 1, stats: b },
      ]),
    ).toEqual({
      connections: 6,
      accepted: 5,
      rejected: {
        stale: 3,
        duplicate: 0,
        low_difficulty: 0,
        invalid: 0,
        unauthorized: 0,
        not_subscribed: 0,
        busy: 4,
      },
    });
  });
});
