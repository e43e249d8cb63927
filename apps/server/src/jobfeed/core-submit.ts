// A region's found block goes to the core (which submits it to every node it has) and to every
// node of the region's own. A block the core cannot be reached for is re-sent in the background.
import type { NatsConnection } from 'nats';
import { submitBlockToAll, type SubmitNode } from '../chain/index.js';
import type { BitcoinFamilyCoin as CoinId } from '@manjam/protocol';
import type { Logger } from '../logger.js';
import type { BlockSubmitResult } from '../runtime.js';
import { decode, encode, submitReplySchema, submitSubject, type SubmitRequest } from './messages.js';

/**
 * How long a block the core could not be reached for is re-sent. A block is worth sending while
 * the network has not moved past it; ten minutes is a Bitcoin block interval, past which a block
 * still unknown to the network has lost the race anyway.
 */
export const BLOCK_RESEND_MS = 10 * 60_000;
/**
 * A re-sent block's request waits at most this long: one sent while the link was coming back can
 * lose its answer, and the next attempt should not wait a full first-request timeout behind it.
 */
const RESEND_REQUEST_TIMEOUT_MS = 10_000;

export interface CoreSubmitterOptions {
  nc: NatsConnection;
  coin: CoinId;
  region: string;
  logger: Logger;
  /** The region's own nodes of the coin (found blocks go to them too). */
  nodes?: readonly SubmitNode[];
  /** One request waits this long for the core's answer (the core confirms on its nodes first). */
  requestTimeoutMs?: number;
  retryMs?: number;
  resendMs?: number;
}

const verdict = (results: BlockSubmitResult[]): BlockSubmitResult =>
  results.find((r) => r.status === 'accepted') ??
  results.find((r) => r.status === 'rejected') ??
  results[0] ?? { status: 'unknown', nodeResult: null };

export class CoreSubmitter {
  private readonly resending = new Set<string>();
  private closed = false;

  constructor(private readonly options: CoreSubmitterOptions) {}

  /** Blocks still being re-sent to the core. */
  get pending(): number {
    return this.resending.size;
  }

  async submit(blockHex: string, expected: { height: number; hash: string }): Promise<BlockSubmitResult> {
    const { nodes } = this.options;
    const own =
      nodes && nodes.length > 0
        ? submitBlockToAll(nodes, blockHex, expected).then(
            (r): BlockSubmitResult => ({ status: r.status, nodeResult: r.nodeResult }),
            (error: unknown): BlockSubmitResult => ({
              status: 'unknown',
              nodeResult: `own nodes: ${(error as Error).message}`,
            }),
          )
        : undefined;
    const request: SubmitRequest = { blockHex, ...expected, region: this.options.region };
    const core = this.ask(request).catch((error: unknown): BlockSubmitResult => {
      this.resendLater(request, error as Error);
      return {
        status: 'unknown',
        nodeResult: `core unreachable (${(error as Error).message}); re-sending for up to ${BLOCK_RESEND_MS / 60_000} min`,
      };
    });
    return verdict(await Promise.all(own ? [core, own] : [core]));
  }

  close(): void {
    this.closed = true;
  }

  private async ask(
    request: SubmitRequest,
    timeoutMs = this.options.requestTimeoutMs ?? 30_000,
  ): Promise<BlockSubmitResult> {
    const reply = await this.options.nc.request(submitSubject(this.options.coin), encode(request), {
      timeout: timeoutMs,
    });
    const result = decode(submitReplySchema, reply.data);
    if (!result) throw new Error('the core answered a block submit with something else');
    return result.tipHash === undefined
      ? { status: result.status, nodeResult: result.nodeResult }
      : { status: result.status, nodeResult: result.nodeResult, tipHash: result.tipHash };
  }

  private resendLater(request: SubmitRequest, first: Error): void {
    const { logger, coin } = this.options;
    const block = { coin, height: request.height, hash: request.hash };
    logger.error({ ...block, err: first }, 'found block: the core is unreachable; re-sending it');
    this.resending.add(request.hash);
    const deadline = Date.now() + (this.options.resendMs ?? BLOCK_RESEND_MS);
    const retryMs = this.options.retryMs ?? 1_000;
    const attempt = async (): Promise<void> => {
      while (!this.closed && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, retryMs));
        try {
          const result = await this.ask(
            request,
            Math.min(this.options.requestTimeoutMs ?? 30_000, RESEND_REQUEST_TIMEOUT_MS),
          );
          logger.warn({ ...block, ...result }, 'found block: delivered to the core after a retry');
          return;
        } catch {
          // still unreachable: the next attempt follows
        }
      }
      if (!this.closed) logger.error(block, 'found block: never reached the core; given up');
    };
    void attempt().finally(() => this.resending.delete(request.hash));
  }
}
