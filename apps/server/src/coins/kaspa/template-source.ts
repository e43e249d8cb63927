// KAS work from kaspad: GetBlockTemplate (paying the pool wallet's address, extra data naming the
// pool), refreshed on every NewBlockTemplate notification. Each template becomes a KaspaTemplate:
// its pre-PoW hash, timestamp, bits and target, the per-job kHeavyHash state (matrix and cSHAKE
// prefix, @manjam/protocol/kaspa) and the RpcBlock kept for SubmitBlock with the nonce set.
//
// NO CLEAN-JOBS STORM: on mainnet kaspad announces new templates about ten times a second. A
// template becomes a new job only when its pre-PoW hash changed (parents, transactions or
// anything else in the header but timestamp and nonce), and at most KAS_MAX_JOBS_PER_SECOND
// times a second: an announcement inside the interval is coalesced into one fetch at its end, so
// the last template always reaches the miners. Each template says whether its parents changed
// (`newParents`): only then does a miner's old work lose value quickly.
//
// STALE: a Kaspa block whose parents are no longer the tips is still accepted into the DAG (it
// merges as blue while inside the merge window), so a job does not die with its template. A
// template stays valid KAS_JOB_VALID_MS after it was replaced (and only the newest
// KAS_KEPT_TEMPLATES are kept); past that its shares are "Stale job".
//
// NODE SILENCE: with a node set (kaspad-nodes.ts), the source follows its availability: once no
// node has answered past the silence limit every template stops taking shares ("Stale job"),
// `current` is undefined (new connections are refused), the ports send their miners away
// (onWorkStopped), and the first answer brings a fresh template.
import type { Logger } from 'pino';
import { RpcError } from '../../rpc/json-rpc.js';
import type { BlockSubmitResult } from '../../stratum/source.js';
import { KAS_JOB_VALID_MS, KAS_MAX_JOBS_PER_SECOND } from '../../config/families/kaspa.js';
import type { AvailabilityListener, NodeAvailability } from '../node-health.js';
import type { KaspaWorkNode } from './kaspad-nodes.js';
import type { RpcBlock } from './kaspad-wire.js';
import { kaspaBlockWithNonce, KaspaTemplateBook, type KaspaTemplate } from './template-book.js';

export { isStaleTemplate, KAS_KEPT_TEMPLATES, type KaspaTemplate } from './template-book.js';

export { KAS_JOB_VALID_MS, KAS_MAX_JOBS_PER_SECOND };
/** The extra data every template carries (kaspad puts it in the coinbase payload). */
export const KAS_EXTRA_DATA = 'manjam-pool';

/** Figures of the source (the drill and /metrics read them). */
export interface KaspaSourceFigures {
  /** NewBlockTemplate notifications received. */
  announcements: number;
  /** GetBlockTemplate calls made. */
  fetches: number;
  /** Templates that became jobs. */
  jobs: number;
  /** Fetched templates with the same pre-PoW hash as the current one (no job). */
  unchanged: number;
  /** Announcements folded into a later fetch by the rate limit. */
  coalesced: number;
}

/** A node whose silence the source follows (KaspadNodes); a bare client is never judged silent. */
interface WatchedNode extends KaspaWorkNode {
  availability(): NodeAvailability;
  onAvailability(listener: AvailabilityListener): () => void;
}

function isWatched(node: KaspaWorkNode): node is WatchedNode {
  return 'onAvailability' in node;
}

export interface KaspaTemplateSourceOptions {
  node: KaspaWorkNode;
  payAddress: string;
  logger: Logger;
  extraData?: string;
  maxJobsPerSecond?: number;
  jobValidMs?: number;
}

/**
 * What the Kaspa ports mine on: kaspad's templates (KaspaTemplateSource), or in a region without
 * kaspad, the core's job feed (jobfeed/core-source.ts).
 */
export interface KaspaWorkSource {
  readonly jobValidMs: number;
  readonly current: KaspaTemplate | undefined;
  /** A template still taking shares, by its seq. */
  get(seq: number): KaspaTemplate | undefined;
  onTemplate(listener: (template: KaspaTemplate) => void): () => void;
  /** Called when the coin's work stops (no node, or no word from the core): miners are sent away. */
  onWorkStopped(listener: () => void): () => void;
  /** SubmitBlock with the nonce set; the node's verdict and the block's hash. */
  submit(template: KaspaTemplate, nonce: bigint): Promise<BlockSubmitResult & { hash: string }>;
}

export class KaspaTemplateSource implements KaspaWorkSource {
  readonly figures: KaspaSourceFigures = {
    announcements: 0,
    fetches: 0,
    jobs: 0,
    unchanged: 0,
    coalesced: 0,
  };
  readonly jobValidMs: number;
  private readonly book: KaspaTemplateBook;
  private readonly minGapMs: number;
  private lastFetchMs = 0;
  private timer: NodeJS.Timeout | undefined;
  private fetching: Promise<void> | undefined;
  private again = false;
  private unsubscribe: (() => void) | undefined;
  private stopWatching: (() => void) | undefined;
  private readonly stoppedListeners = new Set<() => void>();
  /** No node answers past the silence limit: no work until a template is fetched again. */
  private paused = false;
  private started = false;
  private stopped = false;

  constructor(private readonly options: KaspaTemplateSourceOptions) {
    this.minGapMs = 1000 / (options.maxJobsPerSecond ?? KAS_MAX_JOBS_PER_SECOND);
    this.jobValidMs = options.jobValidMs ?? KAS_JOB_VALID_MS;
    this.book = new KaspaTemplateBook(this.jobValidMs);
  }

  get current(): KaspaTemplate | undefined {
    return this.paused ? undefined : this.book.current;
  }

  /** A template still taking shares, by its seq. */
  get(seq: number): KaspaTemplate | undefined {
    return this.book.get(seq);
  }

  onTemplate(listener: (template: KaspaTemplate) => void): () => void {
    return this.book.onTemplate(listener);
  }

  onWorkStopped(listener: () => void): () => void {
    this.stoppedListeners.add(listener);
    return () => this.stoppedListeners.delete(listener);
  }

  /** Whether a node backs the work (undefined for a bare client: never judged). */
  availability(): NodeAvailability | undefined {
    const { node } = this.options;
    return isWatched(node) ? node.availability() : undefined;
  }

  /** Fetches the first template and follows kaspad's announcements (and the nodes' silence). */
  async start(): Promise<void> {
    await this.fetch();
    this.started = true;
    this.unsubscribe = await this.options.node.onNewBlockTemplate(() => this.announced());
    const { node } = this.options;
    if (isWatched(node)) this.stopWatching = node.onAvailability((a) => this.availabilityChanged(a));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.stopWatching?.();
    if (this.timer) clearTimeout(this.timer);
    await this.fetching;
  }

  /** SubmitBlock with the nonce set; kaspad's verdict as the kit's BlockSubmitResult. */
  async submit(template: KaspaTemplate, nonce: bigint): Promise<BlockSubmitResult & { hash: string }> {
    const { block, hash } = kaspaBlockWithNonce(template, nonce);
    return { ...(await this.submitBlock(block)), hash };
  }

  /** SubmitBlock of a block with its nonce set (a region's, from the core's job feed). */
  async submitBlock(block: RpcBlock): Promise<BlockSubmitResult> {
    try {
      const result = await this.options.node.submitBlock(block);
      if (result.accepted) return { status: 'accepted', nodeResult: null };
      return { status: 'rejected', nodeResult: result.message ?? result.rejectReason };
    } catch (err) {
      // Sent, but no answer: kaspad may have taken it (GetBlock tells later).
      const message = err instanceof RpcError ? err.message : String(err);
      return { status: 'unknown', nodeResult: message };
    }
  }

  private availabilityChanged(availability: NodeAvailability): void {
    if (this.stopped) return;
    if (availability.up) {
      // A node answers again: fresh work at once rather than at the next announcement.
      this.announced();
      return;
    }
    this.paused = true;
    this.book.expireAll();
    for (const listener of this.stoppedListeners) listener();
  }

  private announced(): void {
    this.figures.announcements++;
    if (this.stopped) return;
    if (this.timer || this.fetching) {
      this.figures.coalesced++;
      if (this.fetching) this.again = true;
      return;
    }
    const wait = this.lastFetchMs + this.minGapMs - Date.now();
    if (wait <= 0) return void this.fetch();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.fetch();
    }, wait);
  }

  private fetch(): Promise<void> {
    const run = this.fetchOnce().finally(() => {
      this.fetching = undefined;
      if (this.again && !this.stopped) {
        this.again = false;
        this.announced();
        this.figures.announcements--; // not a new announcement, the one held back
      }
    });
    this.fetching = run;
    return run;
  }

  private async fetchOnce(): Promise<void> {
    this.lastFetchMs = Date.now();
    this.figures.fetches++;
    let block: RpcBlock;
    try {
      ({ block } = await this.options.node.getBlockTemplate(
        this.options.payAddress,
        this.options.extraData ?? KAS_EXTRA_DATA,
      ));
    } catch (err) {
      this.options.logger.warn({ err }, 'KAS GetBlockTemplate failed');
      // start() fails without a first template; later the next announcement or answer tries again.
      if (!this.started) throw err;
      return;
    }
    if (!block.header) throw new Error('kaspad sent a template without a header');
    // After a pause the template is handed out afresh even when kaspad's is the same.
    const again = this.paused;
    this.paused = false;
    if (this.book.take(block, again)) this.figures.jobs++;
    else this.figures.unchanged++;
  }
}
