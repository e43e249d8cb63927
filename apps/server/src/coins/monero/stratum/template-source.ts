/**
 * Monero block templates from monerod: `get_block_template` to the pool's address with
 * `reserve_size` bytes reserved in the miner transaction's extra (where each job's extra nonce
 * goes). A new template is fetched
 * - when the node's tip changes (get_info's `top_block_hash`, polled every `pollMs`, and at once
 *   on monerod's ZMQ `json-minimal-chain_main` with `zmqPubUrl`): the templates of the old tip
 *   are stale;
 * - on the same tip when the node's transaction pool changed (get_info's `tx_pool_size` differs
 *   from the one read before the last fetch; at once on ZMQ `json-minimal-txpool_add`), at most
 *   once per `mempoolRefreshMs`: the fees of new transactions reach the blocks the pool finds. Such
 *   a template is handed out only when its transactions or reward differ, and does NOT make the
 *   older templates of the tip stale (their blocks are as valid as they were);
 * - right after the pool submits a block. Submitted blocks are confirmed against the node's tip.
 *
 * REWARD RULE (PPS): every template on a tip shares one `tip.ppsReward`, the expected_reward of
 * the tip's first template (what template_rewards keeps for the height; start.ts adopts the stored
 * value when an earlier process recorded another). PPS credits a share of the height at it, so
 * every share of a height is worth the same, whenever it is credited. The fees a later, richer
 * template adds are not in PPS: a block found on it carries them as its `fees`, shared PPLNS-style
 * like any PPS+ block's fees (found-block.ts).
 */
import type { NewTipSource } from '@manjam/contract';
import { parseMoneroBlock, type MoneroBlockTemplate } from '@manjam/protocol/monero';
import type { Logger } from 'pino';
import type { MoneroRpcClient } from '../rpc.js';
import type { BlockSubmitResult } from '../../../stratum/source.js';
import { MoneroZmqWatch } from './zmq-watch.js';

/** Bytes reserved in the miner extra for the pool's extra nonce (connection 4 + job 4, session.ts). */
export const MONERO_RESERVE_SIZE = 8;

/** What the templates built on one tip share. */
export interface MoneroTip {
  /** PPS value of a share at this height: the expected_reward of the tip's first template (see the top comment). */
  ppsReward: bigint;
  /** Set once the node moved past the tip: every template on it is stale. */
  stale: boolean;
}

export interface MoneroTemplate {
  /** Increases with every template this source hands out. */
  seq: number;
  /** blocktemplate_blob (reserved bytes still zero). */
  blob: Uint8Array;
  block: MoneroBlockTemplate;
  reservedOffset: number;
  height: number;
  prevHash: string;
  seedHash: Uint8Array;
  seedHashHex: string;
  /** The next epoch's seed, known 64 blocks ahead (get_block_template's next_seed_hash), else undefined. */
  nextSeedHash: Uint8Array | undefined;
  networkDifficulty: bigint;
  /** expected_reward, atomic units (base reward plus the template's fees). */
  reward: bigint;
  /** The first template on its tip (false: a refresh for new transactions). */
  newTip: boolean;
  tip: MoneroTip;
}

/**
 * What the XMR port mines on: monerod's templates (MoneroTemplateSource), or in a region without
 * a node, the core's job feed (../jobfeed/core-source.ts). `current` is undefined while there is
 * no work (the port then takes no connection).
 */
export interface MoneroWorkSource {
  readonly current: MoneroTemplate | undefined;
  /** Called with every new template (new tip, or new transactions on the same tip). */
  onTemplate(listener: (template: MoneroTemplate) => void): void;
  /** Submits a full block blob and confirms it: the node's tip must be `expected.hash` afterwards. */
  submitBlock(blockHex: string, expected: { height: number; hash: string }): Promise<BlockSubmitResult>;
}

interface TemplateAnswer {
  blocktemplate_blob: string;
  difficulty: number;
  wide_difficulty?: string;
  expected_reward: number;
  height: number;
  prev_hash: string;
  reserved_offset: number;
  seed_hash: string;
  next_seed_hash?: string;
}

interface InfoAnswer {
  top_block_hash: string;
  tx_pool_size: number;
}

export interface MoneroTemplateSourceOptions {
  daemon: MoneroRpcClient;
  /** The pool wallet's primary address (monerod mines to standard addresses only). */
  address: string;
  logger: Logger;
  pollMs: number;
  /** Same-tip refresh for new pool transactions at most this often; 0 = never (chains.XMR.mempoolRefreshMs). */
  mempoolRefreshMs: number;
  /** monerod's --zmq-pub endpoint: new tips and transactions heard at once (polling stays). */
  zmqPubUrl?: string;
}

const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));

/** Same transactions in the same order: a same-tip template that would give miners nothing new. */
function sameTransactions(a: MoneroBlockTemplate, b: MoneroBlockTemplate): boolean {
  return (
    a.txHashes.length === b.txHashes.length &&
    a.txHashes.every((hash, i) => Buffer.from(hash).equals(b.txHashes[i] as Uint8Array))
  );
}

export class MoneroTemplateSource implements MoneroWorkSource {
  private template: MoneroTemplate | undefined;
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private zmq: MoneroZmqWatch | undefined;
  private refreshing: Promise<void> | undefined;
  private polling = false;
  private pollAgain = false;
  /** get_info's tx_pool_size read before the last fetch, and when that fetch was. */
  private poolSize = -1;
  private fetchedMs = 0;
  private readonly listeners = new Set<(template: MoneroTemplate) => void>();

  constructor(private readonly options: MoneroTemplateSourceOptions) {}

  /** The newest template (after start). */
  get current(): MoneroTemplate | undefined {
    return this.template;
  }

  /** How new blocks are heard now: monerod's ZMQ once its messages arrive, else the poll. */
  get newTipsBy(): NewTipSource {
    return this.zmq?.works ? 'zmq' : 'poll';
  }

  /** Called with every new template (new tip, or new transactions on the same tip). */
  onTemplate(listener: (template: MoneroTemplate) => void): void {
    this.listeners.add(listener);
  }

  /** Fetches the first template, then polls the tip (and listens to monerod's ZMQ when configured). */
  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.poll(), this.options.pollMs);
    const url = this.options.zmqPubUrl;
    if (url) this.zmq = new MoneroZmqWatch(url, () => void this.poll(), this.options.logger);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.zmq?.close();
    this.zmq = undefined;
  }

  /** Submits a full block blob and confirms it: the node's tip must be `expected.hash` afterwards. */
  async submitBlock(
    blockHex: string,
    expected: { height: number; hash: string },
  ): Promise<BlockSubmitResult> {
    const { daemon, logger } = this.options;
    let result: BlockSubmitResult;
    try {
      const answer = await daemon.call<{ status: string }>('submit_block', [blockHex]);
      const { block_header: tip } = await daemon.call<{ block_header: { hash: string; height: number } }>(
        'get_last_block_header',
      );
      const onTip = tip.hash === expected.hash && tip.height === expected.height;
      result = {
        status: answer.status === 'OK' && onTip ? 'accepted' : 'unknown',
        nodeResult: answer.status === 'OK' && !onTip ? `OK but the tip is ${tip.hash}` : answer.status,
        tipHash: tip.hash,
      };
    } catch (error) {
      // monerod answers a refused block with an RPC error ("Block not accepted").
      result = { status: 'rejected', nodeResult: (error as Error).message };
    }
    await this.refresh().catch((error: unknown) =>
      logger.warn({ err: error }, 'XMR template refresh after a block failed'),
    );
    return result;
  }

  /** One look at a time; a wake-up arriving during one makes it look once more. */
  private async poll(): Promise<void> {
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = true;
    try {
      do {
        this.pollAgain = false;
        const info = await this.info();
        if (info.top_block_hash !== this.template?.prevHash || this.mempoolDue(info)) await this.refresh();
      } while (this.pollAgain);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'XMR tip poll failed');
    } finally {
      this.polling = false;
    }
  }

  private mempoolDue(info: InfoAnswer): boolean {
    const every = this.options.mempoolRefreshMs;
    return every > 0 && info.tx_pool_size !== this.poolSize && Date.now() - this.fetchedMs >= every;
  }

  private info(): Promise<InfoAnswer> {
    return this.options.daemon.call<InfoAnswer>('get_info', {}, { timeoutMs: 5_000 });
  }

  /** One refresh at a time; a caller arriving during one waits for it. */
  private refresh(): Promise<void> {
    this.refreshing ??= this.fetch().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async fetch(): Promise<void> {
    // The pool size first: a transaction arriving in between is looked at again next time.
    const { tx_pool_size: poolSize } = await this.info();
    const answer = await this.options.daemon.call<TemplateAnswer>('get_block_template', {
      wallet_address: this.options.address,
      reserve_size: MONERO_RESERVE_SIZE,
    });
    this.poolSize = poolSize;
    this.fetchedMs = Date.now();
    const previous = this.template;
    const sameTip = previous !== undefined && answer.prev_hash === previous.prevHash;
    const blob = bytes(answer.blocktemplate_blob);
    const block = parseMoneroBlock(blob);
    const reward = BigInt(answer.expected_reward);
    if (sameTip && reward === previous.reward && sameTransactions(previous.block, block)) return;
    const template: MoneroTemplate = {
      seq: ++this.seq,
      blob,
      block,
      reservedOffset: answer.reserved_offset,
      height: answer.height,
      prevHash: answer.prev_hash,
      seedHash: bytes(answer.seed_hash),
      seedHashHex: answer.seed_hash,
      nextSeedHash: answer.next_seed_hash ? bytes(answer.next_seed_hash) : undefined,
      networkDifficulty: BigInt(answer.wide_difficulty ?? answer.difficulty),
      reward,
      newTip: !sameTip,
      tip: sameTip ? previous.tip : { ppsReward: reward, stale: false },
    };
    if (previous && !sameTip) previous.tip.stale = true;
    this.template = template;
    this.options.logger.debug(
      { height: template.height, seq: template.seq, newTip: template.newTip, txs: block.txHashes.length },
      'new XMR template',
    );
    for (const listener of this.listeners) listener(template);
  }
}
