// What happens to a judged submit after its dialect has decided, the same on every Stratum port:
// its counter, the share log, the live hashrate and the ban judge. The dialect only writes its own
// answer (`true`, `{"status":"OK"}`, or its wire error for the rejection kind).
import type { HashrateTracker } from '../shares/hashrate.js';
import type { HeldSocket } from '../shares/journal.js';
import type { AcceptedShare, MinerRef, RejectReason } from '../shares/types.js';
import type { BanJudge, BanVerdict, JudgedConnection } from './ban-judge.js';
import { countPortShare } from './listener.js';
import { REJECTION_KINDS, REJECTION_RULES, rejectionCounts, type RejectionKind } from './rejections.js';

/** A port's counters (added to /metrics). */
export interface ShareStats {
  accepted: number;
  /** Shares that were blocks (submitted to the node). */
  blocks: number;
  rejected: Record<RejectionKind, number>;
}

export function shareStats(): ShareStats {
  return { accepted: 0, blocks: 0, rejected: rejectionCounts() };
}

/** A family's figures over its open ports (FamilyPorts.stats): connections, accepted, rejected by kind. */
export function portFigures(
  ports: Iterable<{
    readonly connections: number;
    readonly stats: Pick<ShareStats, 'accepted' | 'rejected'>;
  }>,
): { connections: number; accepted: number; rejected: Record<RejectionKind, number> } {
  const figures = { connections: 0, accepted: 0, rejected: rejectionCounts() };
  for (const { connections, stats } of ports) {
    figures.connections += connections;
    figures.accepted += stats.accepted;
    for (const kind of REJECTION_KINDS) figures.rejected[kind] += stats.rejected[kind];
  }
  return figures;
}

/** The share sink's methods a book uses, its miners' coin narrowed to `C` (shares/sink.ts). */
export interface BookSink<C extends string> {
  addAccepted(share: Omit<AcceptedShare, 'miner'> & { miner: MinerRef<C> }, socket?: HeldSocket): void;
  addRejected(miner: MinerRef<C>, reason: RejectReason, atMs: number): void;
}

/** A connection as the book sees it: judged for bans, its socket held until its share is durable. */
export interface BookedConnection extends JudgedConnection {
  readonly socket: HeldSocket;
}

export class ShareBook<S extends BookedConnection, C extends string> {
  private readonly pendingBlocks = new Set<Promise<void>>();

  constructor(
    readonly stats: Pick<ShareStats, 'accepted' | 'rejected'> & Partial<Pick<ShareStats, 'blocks'>>,
    private readonly sink: BookSink<C>,
    private readonly judge: BanJudge<S>,
  ) {}

  /**
   * A refused submit: counted by kind, kept in the share log when it is a share of a known miner,
   * and counted for bans with the kind's verdict unless the caller knows better (`verdict`).
   */
  refused(
    session: S,
    miner: MinerRef<C> | undefined,
    kind: RejectionKind,
    verdict: BanVerdict = REJECTION_RULES[kind].ban,
  ): void {
    this.stats.rejected[kind]++;
    const logAs = REJECTION_RULES[kind].logAs;
    if (miner && logAs !== null) this.sink.addRejected(miner, logAs, Date.now());
    this.judge.count(session, verdict);
  }

  /**
   * An accepted share: given to the sink BEFORE `reply` writes the miner's success (the sink holds
   * the socket corked until the share is durable), then counted for hashrate and bans.
   */
  accepted(
    session: S,
    share: Omit<AcceptedShare, 'miner'> & { miner: MinerRef<C> },
    hashrate: HashrateTracker | undefined,
    reply: () => void,
  ): void {
    this.stats.accepted++;
    this.sink.addAccepted(share, session.socket);
    reply();
    countPortShare(session.socket, share.difficulty, share.atMs);
    if (hashrate) {
      const { miner, difficulty, actualDifficulty, atMs } = share;
      hashrate.add(miner.workerKey, difficulty, actualDifficulty, atMs);
      hashrate.add(miner.payeeKey, difficulty, actualDifficulty, atMs);
      hashrate.add('pool', difficulty, actualDifficulty, atMs);
    }
    this.judge.count(session, 'valid');
  }

  /** A share that was a block: `work` submits and records it (never rejects); awaited by `settled`. */
  block(work: Promise<void>): void {
    if (this.stats.blocks !== undefined) this.stats.blocks++;
    this.pendingBlocks.add(work);
    void work.finally(() => this.pendingBlocks.delete(work));
  }

  /** Resolves when every block being submitted is recorded. */
  async settled(): Promise<void> {
    await Promise.all([...this.pendingBlocks]);
  }
}
