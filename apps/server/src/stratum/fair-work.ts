/**
 * FAIR, BOUNDED PROOF-OF-WORK CHECKING, the same for every hashing family (RandomX on the XMR
 * ports, Scrypt on the V1 ports; a future family puts its hasher behind one of these too).
 *
 * - Each connection has its own FIFO of shares waiting for a hash: a connection waits behind its
 *   own shares, never behind another's.
 * - When a hasher slot frees, the next share comes from the ADDRESS that has used the least
 *   hashing lately, and within it from the CONNECTION that has used the least (least attained
 *   service, with usage halving every USAGE_HALF_LIFE_MS). An honest miner, who sends a share
 *   every few seconds, has always used less than a flooder, so its share goes to the next free
 *   slot: it waits for at most the hashes already running, whatever the flood. Several flooders
 *   share what is left between them.
 * - Bounded: at most `perConnection` shares wait per connection and `total` in all. Past its own
 *   bound a connection's share is refused unchecked ("own-queue": charged to it, counted invalid
 *   for bans, so a connection that keeps its queue full is slowed, then cut by the ban judge).
 *   When the total is full the newest share of the longest queue makes room (its sender is
 *   charged); if the newcomer's own queue is as long as any, the pool is full for it ("pool": the
 *   pool's own capacity, counted neither for nor against the miner).
 * - `running` hashes at once (RandomX: one per thread, so a share never waits in the hasher's own
 *   queue behind a flooder's); a closed connection's waiting shares are dropped unhashed.
 * - One of those slots (when there are two or more) is KEPT FOR PROVEN CONNECTIONS: those whose
 *   last hashed share met its target. A flood of shares that never do (garbage, or a claim the
 *   hash contradicts) can fill every other slot but not that one, so an honest miner's share
 *   starts at once instead of waiting for a flooder's hash to end (on a 2-thread RandomX port a
 *   light-mode hash is tens of milliseconds). A new connection is unproven until its first good
 *   share; a miner that also floods loses its standing at its first bad hash.
 * SHA-256d does not go through here: it is hashed inline in slices (sha256d-queue.ts) at about
 * 1 µs a share, so a flood costs the flooder's own socket reads more than the hashing, and a
 * slice never holds a share back more than one turn of the event loop.
 */

/** A connection as the scheduler sees it: its address record (one object per remote address) and whether it is gone. */
export interface WorkOwner {
  readonly address: object;
  readonly closed: boolean;
}

export interface FairWorkLimits {
  /** Shares of one connection waiting for a hash (config stratum.powQueue.perConnection). */
  perConnection: number;
  /** Shares waiting in all (config stratum.powQueue.total). */
  total: number;
}

/**
 * Why a share was refused without a hash: `own-queue` = its connection's queue was full (or the
 * longest when all were full), charged to the connection; `pool` = the pool's own capacity.
 */
export type Unchecked = 'own-queue' | 'pool';

export interface WorkItem {
  /**
   * Its turn came: hash (or decide without hashing) and answer. Resolves `true` when the hash met
   * the share's target, `false` when it did not, nothing when it learnt nothing (no hash made).
   * Must not reject.
   */
  run(): Promise<boolean | void>;
  /** Refused without a hash (answered "busy" by the caller). */
  refuse(cause: Unchecked): void;
}

/** What a share refused unchecked is told: its connection's own queue was full (charged to it), or the pool's capacity. */
export const UNCHECKED_MESSAGE: Record<Unchecked, string> = {
  'own-queue': 'Too many shares waiting on this connection, share not checked',
  pool: 'Server busy, share not checked',
};

/** Usage halves this often: what a connection hashed a minute ago hardly counts against it now. */
export const USAGE_HALF_LIFE_MS = 10_000;
/** Refused shares remembered per job (so a nonce re-sent is not hashed again); past it, not remembered. */
export const MAX_REMEMBERED_REFUSALS = 4_096;

interface Flow {
  used: number;
  queue: WorkItem[];
}

interface Group<O> {
  used: number;
  queued: number;
  flows: Map<O, Flow>;
}

export class FairWork<O extends WorkOwner> {
  private readonly groups = new Map<object, Group<O>>();
  /** The groups with shares waiting: each hash scans these, not every address seen lately. */
  private readonly waitingGroups = new Set<Group<O>>();
  private waiting = 0;
  private active = 0;
  private pumping = false;
  /** Slots only a proven connection's share may take (see the top comment). */
  private readonly reserved: number;
  /** Whether each connection's last hashed share met its target (absent: none hashed yet). */
  private readonly proven = new WeakMap<O, boolean>();
  /** Usage is kept scaled by 2^((t - base) / halfLife): a hash now weighs more than one before. */
  private base: number;
  /** Shares refused unchecked, by cause, since start (for figures and /metrics). */
  readonly refused: Record<Unchecked, number> = { 'own-queue': 0, pool: 0 };

  constructor(
    private readonly limits: FairWorkLimits,
    private readonly running: number,
    private readonly now: () => number = () => performance.now(),
    private readonly halfLifeMs = USAGE_HALF_LIFE_MS,
  ) {
    this.base = now();
    this.reserved = running > 1 ? 1 : 0;
  }

  /** Shares waiting for a hash. */
  get queued(): number {
    return this.waiting;
  }

  /** Shares being hashed. */
  get inFlight(): number {
    return this.active;
  }

  /** Shares of `owner` waiting. */
  queuedFor(owner: O): number {
    return this.groups.get(owner.address)?.flows.get(owner)?.queue.length ?? 0;
  }

  /** Queues `item` for `owner` (it runs in its turn), or refuses it at once. */
  add(owner: O, item: WorkItem): void {
    if (owner.closed) return;
    const group = this.groupOf(owner.address);
    const flow = group.flows.get(owner);
    const length = flow?.queue.length ?? 0;
    if (length >= this.limits.perConnection) return this.refuse(item, 'own-queue');
    if (this.waiting >= this.limits.total && !this.evictFor(length)) return this.refuse(item, 'pool');
    if (flow) flow.queue.push(item);
    else group.flows.set(owner, { used: 0, queue: [item] });
    group.queued++;
    this.waiting++;
    this.waitingGroups.add(group);
    this.pump();
  }

  private refuse(item: WorkItem, cause: Unchecked): void {
    this.refused[cause]++;
    item.refuse(cause);
  }

  /** Makes room by refusing the newest share of the longest queue, if it is longer than the newcomer's (`length` + 1) would be. */
  private evictFor(length: number): boolean {
    let longest: { group: Group<O>; flow: Flow } | undefined;
    for (const group of this.waitingGroups)
      for (const other of group.flows.values())
        if (!longest || other.queue.length > longest.flow.queue.length) longest = { group, flow: other };
    if (!longest || longest.flow.queue.length <= length + 1) return false;
    const evicted = longest.flow.queue.pop() as WorkItem;
    this.taken(longest.group, 1);
    this.refuse(evicted, 'own-queue');
    return true;
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.active < this.running && this.waiting > 0) {
        const next = this.next(this.active >= this.running - this.reserved);
        if (!next) break;
        const { owner, item } = next;
        this.active++;
        const done = (good?: boolean | void): void => {
          if (typeof good === 'boolean') this.proven.set(owner, good);
          this.active--;
          this.pump();
        };
        let work: Promise<boolean | void>;
        try {
          work = item.run();
        } catch {
          work = Promise.resolve();
        }
        work.then(done, () => done());
      }
    } finally {
      this.pumping = false;
    }
  }

  /**
   * The next share to hash (of a proven connection only, when `provenOnly`), charged to its
   * address and connection; closed connections' shares are dropped.
   */
  private next(provenOnly: boolean): { owner: O; item: WorkItem } | undefined {
    const weight = this.weight();
    for (;;) {
      let pick: { group: Group<O>; owner: O; flow: Flow } | undefined;
      for (const group of this.waitingGroups) {
        if (pick && group.used >= pick.group.used) continue;
        const lightest = this.lightestFlow(group, provenOnly);
        if (lightest) pick = { group, ...lightest };
      }
      if (!pick) return undefined;
      const { group, owner, flow } = pick;
      if (owner.closed) {
        this.taken(group, flow.queue.length);
        group.flows.delete(owner);
        continue;
      }
      this.taken(group, 1);
      group.used += weight;
      flow.used += weight;
      const item = flow.queue.shift() as WorkItem;
      // An emptied connection is forgotten (its address keeps the usage): memory follows the queues.
      if (flow.queue.length === 0) group.flows.delete(owner);
      return { owner, item };
    }
  }

  /** The group's connection with shares waiting that used least lately (closed ones count, to be dropped). */
  private lightestFlow(group: Group<O>, provenOnly: boolean): { owner: O; flow: Flow } | undefined {
    let lightest: { owner: O; flow: Flow } | undefined;
    for (const [owner, flow] of group.flows) {
      if (flow.queue.length === 0) continue;
      if (provenOnly && !owner.closed && this.proven.get(owner) !== true) continue;
      if (!lightest || flow.used < lightest.flow.used) lightest = { owner, flow };
    }
    return lightest;
  }

  /** `count` shares of `group` leave the queues (hashed, dropped or evicted). */
  private taken(group: Group<O>, count: number): void {
    group.queued -= count;
    this.waiting -= count;
    if (group.queued === 0) this.waitingGroups.delete(group);
  }

  private groupOf(address: object): Group<O> {
    let group = this.groups.get(address);
    if (!group) {
      // A new address starts level with the least-served address waiting (as a new flow takes
      // the virtual time in start-time fair queueing): a flooder gains nothing by coming from a
      // fresh address, and an honest address that used less still goes first.
      let level: number | undefined;
      for (const other of this.waitingGroups)
        if (level === undefined || other.used < level) level = other.used;
      group = { used: level ?? 0, queued: 0, flows: new Map() };
      this.groups.set(address, group);
    }
    return group;
  }

  /** What one hash weighs now; rescales every record (and forgets idle ones) once the scale grows large. */
  private weight(): number {
    const now = this.now();
    const halvings = (now - this.base) / this.halfLifeMs;
    if (halvings < 32) return 2 ** halvings;
    const factor = 2 ** -halvings;
    this.base = now;
    for (const [address, group] of this.groups) {
      group.used *= factor;
      for (const flow of group.flows.values()) flow.used *= factor;
      if (group.queued === 0 && group.used < 1e-6) this.groups.delete(address);
    }
    return 1;
  }
}
