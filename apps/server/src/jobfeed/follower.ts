// A region's side of the job feed, the same for every coin family: it hears the core's work and
// state for one coin, checks that they are about this coin and chain, and decides whether the
// coin has work. The coin's work stops (like a silent node) when the core says its nodes are
// silent OR when nothing came from the core within the silence limit: a region cut from the core
// must not let its miners work on a stale template for ever. The family's source (e.g.
// coins/bitcoin/jobfeed/core-source.ts) turns the work into what its Stratum dialect mines on.
import type { CoinId } from '../config/index.js';
import type { Logger } from '../logger.js';
import type { SourceAvailability } from '../stratum/source.js';
import type { CoreSubmitter } from './core-submit.js';
import {
  HEARTBEAT_MS,
  decode,
  stateMessageSchema,
  stateSubject,
  workSubject,
  type CoinIdentity,
  type StateMessage,
} from './messages.js';

export interface FeedFollowerOptions<W extends CoinIdentity> {
  /** Hears each message published on a subject (a plain NATS subscription); returns the unsubscribe. */
  listen: (subject: string, onData: (data: Uint8Array) => void) => () => void;
  coin: CoinId;
  network: string;
  /** Reads the last message of a subject from the core's job stream (undefined: none yet). */
  readLast: (subject: string) => Promise<Uint8Array | undefined>;
  submitter: CoreSubmitter;
  /** The coin's node silence limit: no word from the core this long stops the coin's work. */
  silenceMs: number;
  logger: Logger;
  /** The family's codec: a work message, or undefined when the data is not one. */
  decodeWork: (data: Uint8Array) => W | undefined;
  /** Whether the core's pool address is one of this coin and network. */
  validAddress: (address: string) => boolean;
  /** Log fields of the current work (its height). */
  describe: (work: W | undefined) => Record<string, unknown>;
  /** Newer work while the coin has work. */
  onWork: (work: W) => void;
  /** The coin's work stopped or resumed; when it resumed, `work` is to be handed out afresh. */
  onAvailability: (next: SourceAvailability, work: W | undefined) => void;
}

/**
 * How long a region's start waits for the core's first word on a coin. The core publishes every
 * coin it runs once a heartbeat (and the stream keeps the last message), so a coin not heard of in
 * three heartbeats is one the core does not publish now: the region starts without it (its port
 * turns miners away) rather than keep every other coin, and its stop signal, waiting.
 */
export const FIRST_WORD_WAIT_MS = 3 * HEARTBEAT_MS;

/** Why a coin the core has never been heard about has no work (its log line and availability). */
export const waitingMessage = (coin: CoinId): string =>
  `${coin} waits: the core publishes no ${coin} jobs (nothing on manjam.jobs.${coin}.* within ` +
  `${FIRST_WORD_WAIT_MS / 1000} s: the core runs without ${coin}, has not started, or cannot be reached); ` +
  `its Stratum port turns miners away until the core's first ${coin} job`;

export class FeedFollower<W extends CoinIdentity> {
  private address: string | undefined;
  private latest: W | undefined;
  private coreState: StateMessage | undefined;
  private lastHeardMs = 0;
  private state: SourceAvailability;
  private readonly offs: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private fetching = false;
  private heard: (() => void) | undefined;
  private closed = false;

  constructor(private readonly options: FeedFollowerOptions<W>) {
    this.state = { up: false, since: new Date(), message: waitingMessage(options.coin) };
  }

  /** The pool address the core's messages name (undefined until the core was heard from). */
  get poolAddress(): string | undefined {
    return this.address;
  }

  get work(): W | undefined {
    return this.latest;
  }

  availability(): SourceAvailability {
    return this.state;
  }

  /**
   * Listens, reads the current work, and resolves once the core has been heard from, or after
   * FIRST_WORD_WAIT_MS: the coin then waits (paused, logged with why) and starts at the core's
   * first word. Resolves true when the core was heard from.
   */
  async start(): Promise<boolean> {
    const { listen, coin, logger } = this.options;
    this.offs.push(
      listen(workSubject(coin), (data) => this.onWork(data, true)),
      listen(stateSubject(coin), (data) => this.onState(data, true)),
    );
    const firstWord = new Promise<boolean>((resolve) => (this.heard = () => resolve(true)));
    await this.catchUp();
    const tick = Math.min(1_000, Math.max(50, this.options.silenceMs / 4));
    this.timer = setInterval(() => this.check(), tick);
    if (this.address === undefined) logger.info({ coin }, "waiting for the core's first job");
    let timer: NodeJS.Timeout | undefined;
    const heard = await Promise.race([
      firstWord,
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), FIRST_WORD_WAIT_MS))),
    ]);
    clearTimeout(timer);
    if (heard) this.logStarted();
    else {
      logger.warn({ coin, waitedMs: FIRST_WORD_WAIT_MS }, waitingMessage(coin));
      // Heard later: the coin starts then.
      void firstWord.then(() => this.logStarted());
    }
    return heard;
  }

  private logStarted(): void {
    if (this.closed) return;
    this.options.logger.info(
      { coin: this.options.coin, ...this.options.describe(this.latest) },
      "jobs come from the core's job feed",
    );
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    for (const off of this.offs.splice(0)) off();
    this.heard?.();
    this.options.submitter.close();
  }

  /** Reads the last state and work from the stream (at start, and when a state names work we missed). */
  private async catchUp(): Promise<void> {
    if (this.fetching) return;
    this.fetching = true;
    const { coin } = this.options;
    try {
      const [work, state] = await Promise.all([
        this.options.readLast(workSubject(coin)),
        this.options.readLast(stateSubject(coin)),
      ]);
      if (work) this.onWork(work, false);
      if (state) this.onState(state, false);
    } catch (error) {
      this.options.logger.warn({ err: error, coin }, "could not read the core's job stream");
    } finally {
      this.fetching = false;
    }
  }

  /**
   * Is the message about this coin on this chain? It names the pool address and proves the core
   * alive: from now when it came live, from its publishing time when read back from the stream.
   */
  private accepts(message: CoinIdentity, live: boolean): boolean {
    const { coin, network, logger } = this.options;
    if (message.coin !== coin || message.network !== network) {
      logger.error(
        { coin, network, got: { coin: message.coin, network: message.network } },
        'the core publishes another coin or network on this subject: ignored',
      );
      return false;
    }
    if (!this.options.validAddress(message.poolAddress)) {
      logger.error(
        { coin, network, poolAddress: message.poolAddress },
        `the core's ${coin} pool address is not a ${coin} ${network} address: ignored`,
      );
      return false;
    }
    this.address = message.poolAddress;
    const now = Date.now();
    // Live word from the core: a found block waiting for it goes now.
    if (live) this.options.submitter.coreHeard();
    this.lastHeardMs = Math.max(this.lastHeardMs, live ? now : Math.min(now, message.publishedAt));
    this.heard?.();
    return true;
  }

  private onWork(data: Uint8Array, live: boolean): void {
    const message = this.options.decodeWork(data);
    if (!message || !this.accepts(message, live) || !isNewer(message, this.latest)) return;
    this.latest = message;
    if (this.state.up) this.options.onWork(message);
    else this.check();
  }

  private onState(data: Uint8Array, live: boolean): void {
    const message = decode(stateMessageSchema, data);
    if (!message || !this.accepts(message, live)) return;
    if (this.coreState && message.publishedAt < this.coreState.publishedAt) return;
    this.coreState = message;
    if (message.workId !== '' && message.workId !== this.latest?.workId) void this.catchUp();
    this.check();
  }

  /** The coin's availability now; undefined while the core has not been heard from (or no work yet). */
  private judge(): SourceAvailability | undefined {
    if (this.address === undefined) return undefined;
    const { coin, silenceMs } = this.options;
    if (Date.now() - this.lastHeardMs >= silenceMs) {
      const seconds = Math.round(silenceMs / 1000);
      return {
        up: false,
        since: new Date(),
        message: `${coin}: no job from the core for ${seconds} s; work stopped, miners sent to their backup pools`,
      };
    }
    const core = this.coreState;
    if (core && !core.up) return { up: false, since: new Date(core.since), message: core.message };
    return this.latest ? { up: true, since: new Date(), message: "the core's job feed answers" } : undefined;
  }

  /** True once the coin has no work, or the core has not been heard from for the silence limit (before check() says so). */
  silentPastLimit(): boolean {
    return !this.state.up || Date.now() - this.lastHeardMs >= this.options.silenceMs;
  }

  /** Decides whether the coin has work: the core says it is up, and the core was heard recently. */
  private check(): void {
    const next = this.judge();
    if (!next || next.up === this.state.up) return;
    this.state = next;
    const { logger } = this.options;
    const log = next.up ? logger.warn : logger.error;
    log.call(logger, { coin: this.options.coin, lastHeardAt: new Date(this.lastHeardMs) }, next.message);
    this.options.onAvailability(next, next.up ? this.latest : undefined);
  }
}

/** Same publisher: a later counter. Another one (the core's leader changed): a later time. */
function isNewer(message: CoinIdentity, than: CoinIdentity | undefined): boolean {
  if (!than) return true;
  const [pid, n] = message.workId.split(':');
  const [thanPid, thanN] = than.workId.split(':');
  return pid === thanPid ? Number(n) > Number(thanN) : message.publishedAt >= than.publishedAt;
}
