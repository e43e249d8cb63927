/**
 * Monero block templates from monerod: `get_block_template` to the pool's address with
 * `reserve_size` bytes reserved in the miner transaction's extra (where each connection's extra
 * nonce goes), refreshed when the node's tip changes (get_info polled every `pollMs`; ZMQ later)
 * and right after the pool submits a block. Submitted blocks are confirmed against the node's tip.
 */
import { parseMoneroBlock, type MoneroBlockTemplate } from '@manjam/protocol/monero';
import type { Logger } from 'pino';
import type { MoneroRpcClient } from '../../devchain/monero-rpc.js';
import type { BlockSubmitResult } from '../../runtime.js';

/** Bytes reserved in the miner extra for the pool's per-connection extra nonce. */
export const MONERO_RESERVE_SIZE = 8;

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
  /** Set once a newer template replaced this one (its shares are stale). */
  stale: boolean;
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

export interface MoneroTemplateSourceOptions {
  daemon: MoneroRpcClient;
  /** The pool wallet's primary address (monerod mines to standard addresses only). */
  address: string;
  logger: Logger;
  pollMs?: number;
}

const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));

export class MoneroTemplateSource {
  private template: MoneroTemplate | undefined;
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;
  private readonly listeners = new Set<(template: MoneroTemplate) => void>();

  constructor(private readonly options: MoneroTemplateSourceOptions) {}

  /** The newest template (after start). */
  get current(): MoneroTemplate | undefined {
    return this.template;
  }

  /** Called with every new template (new tip). */
  onTemplate(listener: (template: MoneroTemplate) => void): void {
    this.listeners.add(listener);
  }

  /** Fetches the first template, then polls the tip. */
  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.poll(), this.options.pollMs ?? 1_000);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
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

  private async poll(): Promise<void> {
    try {
      const info = await this.options.daemon.call<{ top_block_hash: string }>(
        'get_info',
        {},
        { timeoutMs: 5_000 },
      );
      if (info.top_block_hash !== this.template?.prevHash) await this.refresh();
    } catch (error) {
      this.options.logger.warn({ err: error }, 'XMR tip poll failed');
    }
  }

  /** One refresh at a time; a caller arriving during one waits for it. */
  private refresh(): Promise<void> {
    this.refreshing ??= this.fetch().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async fetch(): Promise<void> {
    const answer = await this.options.daemon.call<TemplateAnswer>('get_block_template', {
      wallet_address: this.options.address,
      reserve_size: MONERO_RESERVE_SIZE,
    });
    if (this.template && answer.prev_hash === this.template.prevHash) return;
    const blob = bytes(answer.blocktemplate_blob);
    const template: MoneroTemplate = {
      seq: ++this.seq,
      blob,
      block: parseMoneroBlock(blob),
      reservedOffset: answer.reserved_offset,
      height: answer.height,
      prevHash: answer.prev_hash,
      seedHash: bytes(answer.seed_hash),
      seedHashHex: answer.seed_hash,
      nextSeedHash: answer.next_seed_hash ? bytes(answer.next_seed_hash) : undefined,
      networkDifficulty: BigInt(answer.wide_difficulty ?? answer.difficulty),
      reward: BigInt(answer.expected_reward),
      stale: false,
    };
    if (this.template) this.template.stale = true;
    this.template = template;
    this.options.logger.debug({ height: template.height, seq: template.seq }, 'new XMR template');
    for (const listener of this.listeners) listener(template);
  }
}
