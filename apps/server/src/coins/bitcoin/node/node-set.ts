// The nodes of one coin as the template source sees them: the configured endpoint first, then
// its backups. Template and tip calls go to the node that answered last and fail over in order
// to the others; a longpoll stays on the node that gave its id. Found blocks go to every node.
// While a backup serves, the primary is asked in the background (at most every
// FAILBACK_PROBE_MS, with a short timeout) for its tip: once it has the backup's tip again, work
// returns to it (the operator's first node is usually the closest and best kept).
import type { Logger } from 'pino';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import { submitBlockToAll, type SubmitOptions, type SubmitResult } from './block-submitter.js';
import type { BlockHeaderInfo, ChainNode, NodeTemplate } from './node.js';
import type { RpcCallOptions } from '../../../rpc/json-rpc.js';

/** How often a backup in use has the primary asked whether it can take over again. */
export const FAILBACK_PROBE_MS = 30_000;
/** A primary that takes longer than this to name its tip is not ready to take over. */
const FAILBACK_TIMEOUT_MS = 2_000;

export class NodeSet {
  readonly coin: BitcoinFamilyCoin;
  private active = 0;
  private lastProbe = 0;
  /** The primary's probe under way, if any (never awaited by a template call). */
  private probing: Promise<void> | undefined;

  constructor(
    readonly nodes: readonly ChainNode[],
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    const first = nodes[0];
    if (!first) throw new Error('a coin needs at least one node endpoint');
    this.coin = first.coin;
  }

  /** Resolves when the primary's probe under way (if any) is done (tests). */
  async settled(): Promise<void> {
    await this.probing;
  }

  /** The node that answered last (the primary until a failover). */
  get current(): ChainNode {
    return this.nodes[this.active] as ChainNode;
  }

  getBlockTemplate(longpollid?: string, options?: RpcCallOptions): Promise<NodeTemplate> {
    if (longpollid !== undefined) return this.current.getBlockTemplate(longpollid, options);
    return this.failover((node) => node.getBlockTemplate(undefined, options));
  }

  getBestBlockHash(options?: RpcCallOptions): Promise<string> {
    return this.failover((node) => node.getBestBlockHash(options));
  }

  getBlockHeader(hash: string): Promise<BlockHeaderInfo> {
    return this.failover((node) => node.getBlockHeader(hash));
  }

  getBlockCount(): Promise<number> {
    return this.failover((node) => node.getBlockCount());
  }

  /** Submits to every node at once; see submitBlockToAll for how the answers combine. */
  submitBlock(
    blockHex: string,
    expected: { height: number; hash: string },
    options?: SubmitOptions,
  ): Promise<SubmitResult> {
    return submitBlockToAll(this.nodes, blockHex, expected, options);
  }

  close(): void {
    for (const node of this.nodes) node.close();
  }

  /** While a backup serves: asks the primary in the background, at most every FAILBACK_PROBE_MS. */
  private probePrimary(): void {
    if (this.active === 0 || this.probing || this.now() - this.lastProbe < FAILBACK_PROBE_MS) return;
    this.lastProbe = this.now();
    this.probing = this.failBack().finally(() => {
      this.probing = undefined;
    });
  }

  /** Back to the primary when it answers quickly with the same tip as the backup in use. */
  private async failBack(): Promise<void> {
    const primary = this.nodes[0] as ChainNode;
    const backup = this.current;
    try {
      const [theirs, ours] = await Promise.all([
        primary.getBestBlockHash({ timeoutMs: FAILBACK_TIMEOUT_MS }),
        backup.getBestBlockHash({ timeoutMs: FAILBACK_TIMEOUT_MS }),
      ]);
      if (theirs !== ours || this.current !== backup) return;
      this.logger.warn(
        { coin: this.coin, from: backup.rpc.endpoint.url, to: primary.rpc.endpoint.url },
        'node failback: the primary has the tip again',
      );
      this.active = 0;
    } catch {
      // The primary is still down or slow (or the backup stumbled): ask again next time.
    }
  }

  /** Tries the current node, then the others in order; the first that answers becomes current. */
  private async failover<T>(call: (node: ChainNode) => Promise<T>): Promise<T> {
    this.probePrimary();
    let firstError: unknown;
    for (let step = 0; step < this.nodes.length; step++) {
      const index = (this.active + step) % this.nodes.length;
      try {
        const result = await call(this.nodes[index] as ChainNode);
        if (index !== this.active) {
          this.logger.warn(
            { coin: this.coin, from: this.current.rpc.endpoint.url, to: this.nodes[index]?.rpc.endpoint.url },
            'node failover',
          );
          this.active = index;
          // The primary is asked again one probe interval after it failed.
          this.lastProbe = this.now();
        }
        return result;
      } catch (err) {
        firstError ??= err;
      }
    }
    throw firstError;
  }
}
