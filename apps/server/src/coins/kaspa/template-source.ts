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
// node has answered past the silence limit it drops every template (shares of them are "Job not
// found", new connections are refused, the ports send miners away), and fetches a fresh one at
// the first answer.
import {
  bytesToHex,
  kaspaBitsToTarget,
  kaspaBlockHash,
  kaspaPowState,
  kaspaPrePowHash,
  kaspaTargetDifficulty,
  kaspaTargetWords,
  parseKaspaCoinbasePayload,
  parseRpcBlockHeader,
  type KaspaHeader,
  type KaspaPowState,
} from '@manjam/protocol/kaspa';
import type { Logger } from 'pino';
import { RpcError } from '../../rpc/json-rpc.js';
import type { BlockSubmitResult } from '../../stratum/source.js';
import { KAS_JOB_VALID_MS, KAS_MAX_JOBS_PER_SECOND } from './config.js';
import type { AvailabilityListener, NodeAvailability } from '../node-health.js';
import type { KaspaWorkNode } from './kaspad-nodes.js';
import type { RpcBlock } from './kaspad-wire.js';

export { KAS_JOB_VALID_MS, KAS_MAX_JOBS_PER_SECOND };
/** Templates kept for shares (older ones are gone: "Stale job"). */
export const KAS_KEPT_TEMPLATES = 64;
/** The extra data every template carries (kaspad puts it in the coinbase payload). */
export const KAS_EXTRA_DATA = 'manjam-pool';

export interface KaspaTemplate {
  /** 1, 2, ... in this process: the job id's first part. */
  readonly seq: number;
  readonly block: RpcBlock;
  readonly header: KaspaHeader;
  readonly prePow: Uint8Array;
  readonly prePowHex: string;
  readonly timestamp: bigint;
  readonly bits: number;
  readonly target: bigint;
  readonly targetWords: Uint32Array;
  /** The network target as Stratum difficulty (1 = 2^224 - 1). */
  readonly networkDifficulty: number;
  readonly daaScore: bigint;
  /**
   * Sompi the block itself earns once merged as blue (kaspad's subsidy at its DAA score, from the
   * coinbase payload; its fees come on top): what a share of the template is valued at (PPS). The
   * coinbase's outputs pay the blocks the template merges, not the template itself.
   */
  readonly subsidy: bigint;
  readonly pow: KaspaPowState;
  /** Its parents differ from the previous template's (miners should drop old work). */
  readonly newParents: boolean;
  /** When a newer template replaced it (undefined while current). */
  replacedAtMs: number | undefined;
}

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

export function isStaleTemplate(template: KaspaTemplate, nowMs: number, validMs: number): boolean {
  return template.replacedAtMs !== undefined && nowMs - template.replacedAtMs > validMs;
}

export class KaspaTemplateSource {
  readonly figures: KaspaSourceFigures = {
    announcements: 0,
    fetches: 0,
    jobs: 0,
    unchanged: 0,
    coalesced: 0,
  };
  readonly jobValidMs: number;
  private readonly templates = new Map<number, KaspaTemplate>();
  private readonly listeners = new Set<(template: KaspaTemplate) => void>();
  private readonly downListeners = new Set<(availability: NodeAvailability) => void>();
  private readonly minGapMs: number;
  private latest: KaspaTemplate | undefined;
  private seq = 0;
  private lastFetchMs = 0;
  private timer: NodeJS.Timeout | undefined;
  private fetching: Promise<void> | undefined;
  private again = false;
  private unsubscribe: (() => void) | undefined;
  private stopWatching: (() => void) | undefined;
  private stopped = false;
  private started = false;

  constructor(private readonly options: KaspaTemplateSourceOptions) {
    this.minGapMs = 1000 / (options.maxJobsPerSecond ?? KAS_MAX_JOBS_PER_SECOND);
    this.jobValidMs = options.jobValidMs ?? KAS_JOB_VALID_MS;
  }

  get current(): KaspaTemplate | undefined {
    return this.latest;
  }

  /** A template still taking shares, by its seq. */
  get(seq: number): KaspaTemplate | undefined {
    return this.templates.get(seq);
  }

  onTemplate(listener: (template: KaspaTemplate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called when the coin's work stops (no node answers): the ports send their miners away. */
  onWorkStopped(listener: (availability: NodeAvailability) => void): () => void {
    this.downListeners.add(listener);
    return () => this.downListeners.delete(listener);
  }

  /** Whether a node backs the work (always, for a bare client). */
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
    const header = { ...template.header, nonce };
    const hash = bytesToHex(kaspaBlockHash(header));
    const block: RpcBlock = {
      ...template.block,
      header: { ...template.block.header!, nonce: nonce.toString() },
    };
    try {
      const result = await this.options.node.submitBlock(block);
      if (result.accepted) return { status: 'accepted', nodeResult: null, hash };
      return { status: 'rejected', nodeResult: result.message ?? result.rejectReason, hash };
    } catch (err) {
      // Sent, but no answer: kaspad may have taken it (GetBlock tells later).
      const message = err instanceof RpcError ? err.message : String(err);
      return { status: 'unknown', nodeResult: message, hash };
    }
  }

  private availabilityChanged(availability: NodeAvailability): void {
    if (this.stopped) return;
    if (availability.up) {
      // A node answers again: fresh work at once rather than at the next announcement.
      this.announced();
      return;
    }
    this.latest = undefined;
    this.templates.clear();
    for (const listener of this.downListeners) listener(availability);
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
    const template = this.toTemplate(block);
    if (!template) {
      this.figures.unchanged++;
      return;
    }
    this.publish(template);
  }

  private toTemplate(block: RpcBlock): KaspaTemplate | undefined {
    if (!block.header) throw new Error('kaspad sent a template without a header');
    const header = parseRpcBlockHeader(block.header);
    const prePow = kaspaPrePowHash(header);
    const prePowHex = bytesToHex(prePow);
    const previous = this.latest;
    if (previous?.prePowHex === prePowHex) return undefined;
    const target = kaspaBitsToTarget(header.bits);
    const parentsKey = (h: KaspaHeader): string => (h.parents[0] ?? []).map(bytesToHex).join(',');
    const coinbase = block.transactions[0];
    return {
      seq: ++this.seq,
      block,
      header,
      prePow,
      prePowHex,
      timestamp: header.timestamp,
      bits: header.bits,
      target,
      targetWords: kaspaTargetWords(target),
      networkDifficulty: kaspaTargetDifficulty(target),
      daaScore: header.daaScore,
      subsidy: coinbase ? parseKaspaCoinbasePayload(coinbase.payload).subsidy : 0n,
      pow: kaspaPowState(prePow, header.timestamp),
      newParents: !previous || parentsKey(previous.header) !== parentsKey(header),
      replacedAtMs: undefined,
    };
  }

  private publish(template: KaspaTemplate): void {
    const now = Date.now();
    if (this.latest) this.latest.replacedAtMs = now;
    this.latest = template;
    this.templates.set(template.seq, template);
    for (const [seq, old] of this.templates) {
      if (this.templates.size <= KAS_KEPT_TEMPLATES && !isStaleTemplate(old, now, this.jobValidMs)) break;
      if (seq !== template.seq) this.templates.delete(seq);
    }
    this.figures.jobs++;
    for (const listener of this.listeners) listener(template);
  }
}
