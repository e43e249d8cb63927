// A region's TemplateSource over the core's job feed for a Bitcoin-family coin: templates and tips
// arrive as the core's nodes produce them. When the coin has work, and when it stops (the core's
// word or its silence), is the feed's rule (../../../jobfeed/follower.ts).
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
import { FeedFollower } from '../../../jobfeed/follower.js';
import type { BlockSubmitResult, SourceAvailability, TemplateInfo, TemplateSource } from '../source.js';
import type { CoreSubmitter } from './core-submit.js';
import { decode, workMessageSchema, type WorkMessage } from './messages.js';

export { FIRST_WORD_WAIT_MS, waitingMessage } from '../../../jobfeed/follower.js';

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

export class CoreJobSource implements TemplateSource {
  readonly coin: CoinId;
  readonly params: CoinParams;
  private readonly feed: FeedFollower<WorkMessage>;
  private readonly templates = new Set<Listener<BlockTemplateRpc>>();
  private readonly tips = new Set<Listener<TipHeader>>();
  private readonly availabilityListeners = new Set<(a: SourceAvailability) => void>();

  constructor(private readonly options: CoreJobSourceOptions) {
    this.coin = options.coin;
    this.params = coinParams(options.coin, options.network);
    this.feed = new FeedFollower<WorkMessage>({
      ...options,
      decodeWork: (data) => decode(workMessageSchema, data),
      validAddress: (address) => isValidAddress(address, this.params),
      describe: (work) => ({ height: work?.template.height }),
      onWork: (work) => this.emit(work),
      onAvailability: (next, work) => this.changed(next, work),
    });
  }

  get poolAddress(): string {
    const address = this.feed.poolAddress;
    if (address === undefined) throw new Error(`${this.coin}: no word from the core's job feed yet`);
    return address;
  }

  /** Resolves once the core has been heard from (true), or after FIRST_WORD_WAIT_MS (false). */
  start(): Promise<boolean> {
    return this.feed.start();
  }

  close(): void {
    this.feed.close();
  }

  /** Found blocks still being re-sent to an unreachable core. */
  get blocksResending(): number {
    return this.options.submitter.pending;
  }

  current(): BlockTemplateRpc | undefined {
    return this.feed.work?.template;
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
    return this.feed.availability();
  }

  silentPastLimit(): boolean {
    return this.feed.silentPastLimit();
  }

  onAvailability(listener: (availability: SourceAvailability) => void): () => void {
    this.availabilityListeners.add(listener);
    return () => this.availabilityListeners.delete(listener);
  }

  private emit(work: WorkMessage): void {
    if (work.tip) for (const listener of this.tips) listener(work.tip, work.info);
    else for (const listener of this.templates) listener(work.template, work.info);
  }

  private changed(next: SourceAvailability, work: WorkMessage | undefined): void {
    for (const listener of this.availabilityListeners) listener(next);
    // Back up: the paused job manager takes the current template as a fresh (clean) job, then
    // the tip the core heard of after it, if any.
    if (!work) return;
    for (const listener of this.templates) listener(work.template, { newTip: true, reason: 'refresh' });
    if (work.tip) this.emit(work);
  }
}
