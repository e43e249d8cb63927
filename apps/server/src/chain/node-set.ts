// The nodes of one coin as the template source sees them: the configured endpoint first, then
// its backups. Template and tip calls go to the node that answered last and fail over in order
// to the others; a longpoll stays on the node that gave its id. Found blocks go to every node.
import type { Logger } from 'pino';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import { submitBlockToAll, type SubmitOptions, type SubmitResult } from './block-submitter.js';
import type { BlockHeaderInfo, ChainNode, NodeTemplate } from './node.js';
import type { RpcCallOptions } from './rpc.js';

export class NodeSet {
  readonly coin: BitcoinFamilyCoin;
  private active = 0;

  constructor(
    readonly nodes: readonly ChainNode[],
    private readonly logger: Logger,
  ) {
    const first = nodes[0];
    if (!first) throw new Error('a coin needs at least one node endpoint');
    this.coin = first.coin;
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

  /** Tries the current node, then the others in order; the first that answers becomes current. */
  private async failover<T>(call: (node: ChainNode) => Promise<T>): Promise<T> {
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
        }
        return result;
      } catch (err) {
        firstError ??= err;
      }
    }
    throw firstError;
  }
}
