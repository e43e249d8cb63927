// A region's XMR work over the core's job feed: each work message becomes a template of the XMR
// port (RandomX seeds follow the published seed hash), and found blocks go back to the core, which
// submits them to monerod. When the coin has work is the feed's rule (../../../jobfeed/follower.ts):
// while it has none (the core's node is silent, or the core is not heard from within the silence
// limit) `current` is undefined, so the port takes no new connection, and the last template's tip
// is marked stale, so shares on it are refused as stale (the XMR dialect has no pause of its own).
// When work resumes, the core's current work is handed out as a fresh template on a new tip.
import { isMoneroAddress, moneroNetworkOf } from '@manjam/protocol/monero';
import type { Config } from '../../../config/index.js';
import type { CoreSubmitter } from '../../../jobfeed/core-submit.js';
import { FeedFollower } from '../../../jobfeed/follower.js';
import type { Logger } from '../../../logger.js';
import type { BlockSubmitResult, SourceAvailability } from '../../../stratum/source.js';
import type { MoneroTemplate, MoneroWorkSource } from '../stratum/template-source.js';
import { decodeMoneroWork, moneroTemplateOf, type MoneroWorkMessage } from './messages.js';

export interface CoreMoneroSourceOptions {
  listen: (subject: string, onData: (data: Uint8Array) => void) => () => void;
  network: Config['chains']['XMR']['network'];
  readLast: (subject: string) => Promise<Uint8Array | undefined>;
  submitter: CoreSubmitter;
  /** chains.XMR.nodeSilenceSeconds: no word from the core this long stops the coin's work. */
  silenceMs: number;
  logger: Logger;
}

export class CoreMoneroSource implements MoneroWorkSource {
  private template: MoneroTemplate | undefined;
  private seq = 0;
  private readonly listeners = new Set<(template: MoneroTemplate) => void>();
  private readonly feed: FeedFollower<MoneroWorkMessage>;

  constructor(private readonly options: CoreMoneroSourceOptions) {
    const network = moneroNetworkOf(options.network);
    this.feed = new FeedFollower<MoneroWorkMessage>({
      ...options,
      coin: 'XMR',
      decodeWork: decodeMoneroWork,
      // monerod mines to a standard address only (chain.ts checks the core's the same way).
      validAddress: (address) => isMoneroAddress(address, network, ['standard']),
      describe: (work) => ({ height: work?.template.height }),
      onWork: (work) => this.take(work),
      onAvailability: (next, work) => (work ? this.take(work) : this.pause()),
    });
  }

  /** The template miners get now; undefined while the coin has no work. */
  get current(): MoneroTemplate | undefined {
    return this.feed.availability().up ? this.template : undefined;
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

  onTemplate(listener: (template: MoneroTemplate) => void): void {
    this.listeners.add(listener);
  }

  /** Resolves once the core has been heard from (true), or after FIRST_WORD_WAIT_MS (false). */
  start(): Promise<boolean> {
    return this.feed.start();
  }

  close(): void {
    this.feed.close();
  }

  submitBlock(blockHex: string, expected: { height: number; hash: string }): Promise<BlockSubmitResult> {
    return this.options.submitter.submit(blockHex, expected);
  }

  private take(work: MoneroWorkMessage): void {
    const previous = this.template;
    const template = moneroTemplateOf(work.template, ++this.seq, previous);
    if (previous && template.tip !== previous.tip) previous.tip.stale = true;
    this.template = template;
    this.options.logger.debug(
      { coin: 'XMR', height: template.height, seq: template.seq, newTip: template.newTip },
      "new XMR template from the core's job feed",
    );
    for (const listener of this.listeners) listener(template);
  }

  private pause(): void {
    if (this.template) this.template.tip.stale = true;
  }
}
