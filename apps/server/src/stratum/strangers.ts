// Who speaks for a worker. A Stratum login needs no credential: anyone may log in as "bob.rig1".
// So a login is taken as the worker's own miner only when
//   - the worker has had no share accepted in this process (a new worker, or a pool just
//     restarted), or
//   - the worker has had a share accepted from this login's address (its rig, or another rig of
//     the same farm behind the same address), or
//   - this login itself has had a share accepted (its work is paid to the account: it mines for it).
// Any other login is a stranger's: its refused shares are not written into the worker's figures
// (they are counted on the stranger's own address record and in /metrics), and its connecting
// and leaving are not shown to the account (presence, the live feed's online/offline, the device
// type). Its accepted shares are credited like any other login's and make it the worker's own.
// Addresses that mined for a worker are kept in memory only (bounded, least recently used first).
import type { HeldSocket } from '../shares/journal.js';
import type { ShareSink } from '../shares/sink.js';
import type { AcceptedShare, FoundBlockRecord, MinerRef, RejectReason } from '../shares/types.js';
import type { AddressRecord } from './bans.js';

/** Workers whose mining addresses are remembered at most (the least recently mined go first). */
const MAX_WORKERS = 200_000;
/** Addresses remembered per worker (a farm's rigs behind a few addresses; the latest kept). */
const ADDRESSES_PER_WORKER = 8;

interface LoginFrom {
  address: AddressRecord;
  own: boolean;
  /** Its connecting was shown to the account (so its leaving is too). */
  shown: boolean;
}

/** A worker's key across case ("bob.Rig1" and "bob.rig1" are one worker). */
const keyOf = (miner: MinerRef<string>): string => miner.workerKey.toLowerCase();

export class WorkerOwners {
  /** Worker key -> the addresses it had shares accepted from, least recently mined worker first. */
  private readonly minedFrom = new Map<string, string[]>();
  private readonly logins = new WeakMap<MinerRef<string>, LoginFrom>();
  /** Since start: logins taken as a stranger's, and their refused shares kept out of workers. */
  readonly counts = { strangerLogins: 0, strangerRejects: 0 };

  constructor(private readonly maxWorkers: number = MAX_WORKERS) {}

  /** Binds a login just resolved to the address it came from; true when it speaks for its worker. */
  bind(miner: MinerRef<string>, address: AddressRecord): boolean {
    const addresses = this.minedFrom.get(keyOf(miner));
    const own = !addresses || addresses.includes(address.ip);
    this.logins.set(miner, { address, own, shown: false });
    if (!own) this.counts.strangerLogins++;
    return own;
  }

  /** Whether this login speaks for its worker (a login never bound does: nothing is known of it). */
  speaksFor(miner: MinerRef<string>): boolean {
    return this.logins.get(miner)?.own ?? true;
  }

  /**
   * Whether the account is to see this login connect ('worker.connected'): only a login that
   * speaks for its worker. Remembered, so that its leaving is shown exactly when its coming was.
   */
  showConnected(miner: MinerRef<string>): boolean {
    const from = this.logins.get(miner);
    if (!from) return true;
    from.shown = from.own;
    return from.shown;
  }

  /** Whether the account is to see this login leave ('worker.disconnected'): when it saw it come. */
  showDisconnected(miner: MinerRef<string>): boolean {
    return this.logins.get(miner)?.shown ?? true;
  }

  /** A share accepted under this login: it speaks for its worker, and so does its address from now on. */
  accepted(miner: MinerRef<string>): void {
    const from = this.logins.get(miner);
    if (!from) return;
    from.own = true;
    const key = keyOf(miner);
    const addresses = this.minedFrom.get(key) ?? [];
    // A rig's every share: the worker's address list stays as it is (only its place is refreshed).
    const next =
      addresses.at(-1) === from.address.ip
        ? addresses
        : [...addresses.filter((ip) => ip !== from.address.ip), from.address.ip].slice(-ADDRESSES_PER_WORKER);
    this.minedFrom.delete(key);
    this.minedFrom.set(key, next);
    while (this.minedFrom.size > this.maxWorkers) {
      const oldest = this.minedFrom.keys().next().value;
      if (oldest === undefined) break;
      this.minedFrom.delete(oldest);
    }
  }

  /** A refused share under this login: false (and counted on its address) when it is a stranger's. */
  rejected(miner: MinerRef<string>): boolean {
    const from = this.logins.get(miner);
    if (!from || from.own) return true;
    from.address.strangerRejects++;
    this.counts.strangerRejects++;
    return false;
  }

  /** Workers whose mining addresses are held (bounded memory checks). */
  get size(): number {
    return this.minedFrom.size;
  }
}

/**
 * The share sink as the Stratum ports see it: every share goes to `sink`, except a stranger's
 * refused share, which is counted against the stranger only (WorkerOwners.rejected).
 */
export class OwnedSink implements ShareSink {
  constructor(
    private readonly sink: ShareSink,
    private readonly owners: WorkerOwners,
  ) {}

  start(): Promise<void> {
    return this.sink.start();
  }

  addAccepted(share: AcceptedShare, socket?: HeldSocket): void {
    this.owners.accepted(share.miner);
    this.sink.addAccepted(share, socket);
  }

  addRejected(miner: MinerRef, reason: RejectReason, atMs: number): void {
    if (this.owners.rejected(miner)) this.sink.addRejected(miner, reason, atMs);
  }

  addBlock(block: FoundBlockRecord): Promise<void> {
    return this.sink.addBlock(block);
  }

  refusal(): string | undefined {
    return this.sink.refusal();
  }

  backlog(): number {
    return this.sink.backlog();
  }

  stop(): Promise<void> {
    return this.sink.stop();
  }
}
