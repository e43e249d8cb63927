// A region's TemplateSource over the core's job feed: templates and tips arrive as the core's
// nodes produce them, and the coin's work stops (like a silent node) when the core says its nodes
// are silent OR when nothing came from the core within the silence limit: a region cut from the
// core must not let its miners work on a stale template for ever.
import {
  coinParams,
  isValidAddress,
  type BlockTemplateRpc,
  type CoinParams,
  type Network,
  type TipHeader,
} from '@manjam/protocol';
import type { BitcoinFamilyCoin as CoinId } from '@manjam/protocol';
import type { Logger } from '../../../logger.js';
import type { BlockSubmitResult, SourceAvailability, TemplateInfo, TemplateSource } from '../source.js';
import type { CoreSubmitter } from './core-submit.js';
import {
  HEARTBEAT_MS,
  decode,
  stateMessageSchema,
  stateSubject,
  workMessageSchema,
  workSubject,
  type StateMessage,
  type WorkMessage,
} from './messages.js';

export interface CoreJobSourceOptions {
  /** Hears each message published on a subject (a plain NATS subscription); returns the unsubscribe. */
  listen: (subject: string, onData: (data: Uint8Array) => void) => () => void;
  coin: CoinId;
  network: Network;
  /** Reads the last message of a subject from the core's job stream (undefined: none yet). */
  readLast: (subject: string) => Promise<Uint8Array | undefined>;
  submitter: CoreSubmitter;
  /** The coin's node silence limit: no word from the core this long stops the coin's work. */
  silenceMs: number;
  logger: Logger;
}

type Listener<T> = (value: T, info: TemplateInfo) => void;

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

export class CoreJobSource implements TemplateSource {
  readonly coin: CoinId;
  readonly params: CoinParams;
  private address: string | undefined;
  private work: WorkMessage | undefined;
  private coreState: StateMessage | undefined;
  private lastHeardMs = 0;
  private state: SourceAvailability;
  private readonly templates = new Set<Listener<BlockTemplateRpc>>();
  private readonly tips = new Set<Listener<TipHeader>>();
  private readonly availabilityListeners = new Set<(a: SourceAvailability) => void>();
  private readonly offs: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private fetching = false;
  private heard: (() => void) | undefined;
  private closed = false;

  constructor(private readonly options: CoreJobSourceOptions) {
    this.coin = options.coin;
    this.params = coinParams(options.coin, options.network);
    this.state = { up: false, since: new Date(), message: waitingMessage(options.coin) };
  }

  get poolAddress(): string {
    if (this.address === undefined) throw new Error(`${this.coin}: no word from the core's job feed yet`);
    return this.address;
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
      { coin: this.coin, height: this.work?.template.height },
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

  /** Found blocks still being re-sent to an unreachable core. */
  get blocksResending(): number {
    return this.options.submitter.pending;
  }

  current(): BlockTemplateRpc | undefined {
    return this.work?.template;
  }

  onTemplate(listener: Listener<BlockTemplateRpc>): () => void {
    this.templates.add(listener);
    return () => this.templates.delete(listener);
  }

  onTip(listener: Listener<TipHeader>): () => void {
    this.tips.add(listener);
    return () => this.tips.delete(listener);
  }

  submitBlock(blockHex: string, expected: { height: number; hash: string }): Promise<BlockSubmitResult> {
    return this.options.submitter.submit(blockHex, expected);
  }

  availability(): SourceAvailability {
    return this.state;
  }

  onAvailability(listener: (availability: SourceAvailability) => void): () => void {
    this.availabilityListeners.add(listener);
    return () => this.availabilityListeners.delete(listener);
  }

  /** Reads the last state and work from the stream (at start, and when a state names work we missed). */
  private async catchUp(): Promise<void> {
    if (this.fetching) return;
    this.fetching = true;
    try {
      const [work, state] = await Promise.all([
        this.options.readLast(workSubject(this.coin)),
        this.options.readLast(stateSubject(this.coin)),
      ]);
      if (work) this.onWork(work, false);
      if (state) this.onState(state, false);
    } catch (error) {
      this.options.logger.warn({ err: error, coin: this.coin }, "could not read the core's job stream");
    } finally {
      this.fetching = false;
    }
  }

  /**
   * Is the message about this coin on this chain? It names the pool address and proves the core
   * alive: from now when it came live, from its publishing time when read back from the stream.
   */
  private accepts(message: WorkMessage | StateMessage, live: boolean): boolean {
    if (message.coin !== this.coin || message.network !== this.options.network) {
      this.options.logger.error(
        {
          coin: this.coin,
          network: this.options.network,
          got: { coin: message.coin, network: message.network },
        },
        'the core publishes another coin or network on this subject: ignored',
      );
      return false;
    }
    if (!isValidAddress(message.poolAddress, this.params)) {
      this.options.logger.error(
        { coin: this.coin, network: this.options.network, poolAddress: message.poolAddress },
        `the core's ${this.coin} pool address is not a ${this.coin} ${this.options.network} address: ignored`,
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
    const message = decode(workMessageSchema, data);
    if (!message || !this.accepts(message, live) || !isNewer(message, this.work)) return;
    this.work = message;
    if (this.state.up) this.emit(message);
    else this.check();
  }

  private onState(data: Uint8Array, live: boolean): void {
    const message = decode(stateMessageSchema, data);
    if (!message || !this.accepts(message, live)) return;
    if (this.coreState && message.publishedAt < this.coreState.publishedAt) return;
    this.coreState = message;
    if (message.workId !== '' && message.workId !== this.work?.workId) void this.catchUp();
    this.check();
  }

  private emit(work: WorkMessage): void {
    if (work.tip) for (const listener of this.tips) listener(work.tip, work.info);
    else for (const listener of this.templates) listener(work.template, work.info);
  }

  /** The coin's availability now; undefined while the core has not been heard from (or no work yet). */
  private judge(): SourceAvailability | undefined {
    if (this.address === undefined) return undefined;
    if (Date.now() - this.lastHeardMs >= this.options.silenceMs) {
      const seconds = Math.round(this.options.silenceMs / 1000);
      return {
        up: false,
        since: new Date(),
        message: `${this.coin}: no job from the core for ${seconds} s; work stopped, miners sent to their backup pools`,
      };
    }
    const core = this.coreState;
    if (core && !core.up) return { up: false, since: new Date(core.since), message: core.message };
    return this.work ? { up: true, since: new Date(), message: "the core's job feed answers" } : undefined;
  }

  /** Decides whether the coin has work: the core says it is up, and the core was heard recently. */
  private check(): void {
    const next = this.judge();
    if (!next || next.up === this.state.up) return;
    this.state = next;
    const log = next.up ? this.options.logger.warn : this.options.logger.error;
    log.call(this.options.logger, { coin: this.coin, lastHeardAt: new Date(this.lastHeardMs) }, next.message);
    for (const listener of this.availabilityListeners) listener(next);
    // Back up: the paused job manager takes the current template as a fresh (clean) job, then
    // the tip the core heard of after it, if any.
    const work = this.work;
    if (!next.up || !work) return;
    for (const listener of this.templates) listener(work.template, { newTip: true, reason: 'refresh' });
    if (work.tip) this.emit(work);
  }
}

/** Same publisher: a later counter. Another one (the core's leader changed): a later time. */
function isNewer(message: WorkMessage, than: WorkMessage | undefined): boolean {
  if (!than) return true;
  const [pid, n] = message.workId.split(':');
  const [thanPid, thanN] = than.workId.split(':');
  return pid === thanPid ? Number(n) > Number(thanN) : message.publishedAt >= than.publishedAt;
}
