// A region's KAS work over the core's job feed: each block template the core publishes becomes a
// template of the KAS port (template-book.ts: pre-PoW hash, timestamp, bits, DAA score, subsidy,
// the kHeavyHash state), and found blocks go back to the core, which submits them to kaspad. When
// the coin has work is the feed's rule (../../../jobfeed/follower.ts): while it has none `current`
// is undefined, so the port takes no new connection, and the templates miners hold stop taking
// shares ("Stale job"). When work resumes, the core's current template is handed out afresh.
import { isKaspaAddress, kaspaNetworkOf } from '@manjam/protocol/kaspa';
import type { Config } from '../../../config/index.js';
import type { CoreSubmitter } from '../../../jobfeed/core-submit.js';
import { FeedFollower } from '../../../jobfeed/follower.js';
import type { Logger } from '../../../logger.js';
import type { BlockSubmitResult, SourceAvailability } from '../../../stratum/source.js';
import { kaspaBlockWithNonce, KaspaTemplateBook } from '../template-book.js';
import type { KaspaTemplate, KaspaWorkSource } from '../template-source.js';
import { decodeKaspaWork, kaspaBlockHex, type KaspaWorkMessage } from './messages.js';

export interface CoreKaspaSourceOptions {
  listen: (subject: string, onData: (data: Uint8Array) => void) => () => void;
  network: Config['chains']['KAS']['network'];
  readLast: (subject: string) => Promise<Uint8Array | undefined>;
  submitter: CoreSubmitter;
  /** chains.KAS.nodeSilenceSeconds: no word from the core this long stops the coin's work. */
  silenceMs: number;
  /** chains.KAS.jobValidSeconds, in ms. */
  jobValidMs: number;
  logger: Logger;
}

export class CoreKaspaSource implements KaspaWorkSource {
  readonly jobValidMs: number;
  private readonly book: KaspaTemplateBook;
  private readonly feed: FeedFollower<KaspaWorkMessage>;
  private readonly stoppedListeners = new Set<() => void>();

  constructor(private readonly options: CoreKaspaSourceOptions) {
    this.jobValidMs = options.jobValidMs;
    this.book = new KaspaTemplateBook(options.jobValidMs);
    const network = kaspaNetworkOf(options.network);
    this.feed = new FeedFollower<KaspaWorkMessage>({
      ...options,
      coin: 'KAS',
      decodeWork: decodeKaspaWork,
      validAddress: (address) => isKaspaAddress(address, network),
      describe: (work) => ({ daaScore: work?.block.header?.daaScore }),
      onWork: (work) => this.book.take(work.block),
      onAvailability: (_next, work) => {
        if (work) return void this.book.take(work.block, true);
        this.book.expireAll();
        for (const listener of this.stoppedListeners) listener();
      },
    });
  }

  /** The template miners get now; undefined while the coin has no work. */
  get current(): KaspaTemplate | undefined {
    return this.feed.availability().up ? this.book.current : undefined;
  }

  get(seq: number): KaspaTemplate | undefined {
    return this.book.get(seq);
  }

  /** The core's pool address (undefined until the core was heard from). */
  get poolAddress(): string | undefined {
    return this.feed.poolAddress;
  }

  /** Found blocks still being re-sent to an unreachable core. */
  get blocksResending(): number {
    return this.options.submitter.pending;
  }

  availability(): SourceAvailability {
    return this.feed.availability();
  }

  onTemplate(listener: (template: KaspaTemplate) => void): () => void {
    return this.book.onTemplate(listener);
  }

  /** The core stopped the coin's work or fell silent: the port sends its miners away. */
  onWorkStopped(listener: () => void): () => void {
    this.stoppedListeners.add(listener);
    return () => this.stoppedListeners.delete(listener);
  }

  /** Resolves once the core has been heard from (true), or after FIRST_WORD_WAIT_MS (false). */
  start(): Promise<boolean> {
    return this.feed.start();
  }

  close(): void {
    this.feed.close();
  }

  async submit(template: KaspaTemplate, nonce: bigint): Promise<BlockSubmitResult & { hash: string }> {
    const { block, hash } = kaspaBlockWithNonce(template, nonce);
    const expected = { height: Number(template.daaScore), hash };
    return { ...(await this.options.submitter.submit(kaspaBlockHex(block), expected)), hash };
  }
}
