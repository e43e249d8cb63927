// KAS work from one kaspad and its backups (chains.KAS.rpcAddress, then rpcBackupAddresses), as
// the Bitcoin family's node set does for its nodes:
// - a template comes from the node in use; when it fails (down, or, with backups configured,
//   silent past KAS_NODE_CALL_TIMEOUT_MS) the next node is asked, and the first that answers is used from
//   then on. While a backup serves, the primary is asked every FAILBACK_PROBE_MS and taken back
//   once it answers quickly;
// - NewBlockTemplate is followed on every node (the listener hears any of them; the template
//   source coalesces), so a backup's new parents reach miners even before a failover;
// - a found block is submitted to every node at once: accepted when one accepts it;
// - silence: every answer is reported to the coin's NodeHealth (coins/node-health.ts). A node
//   that announces nothing is asked for its DAG info every HEARTBEAT_MS, so a frozen node is
//   noticed even on a quiet chain; past `silenceMs` with no answer from any node, KAS is down
//   (the template source drops its work and the ports send miners away) until one answers.
import type { Logger } from 'pino';
import { RpcError } from '../../rpc/json-rpc.js';
import { NodeHealth, type AvailabilityListener, type NodeAvailability } from '../node-health.js';
import type { KaspadClient, SubmitBlockResult } from './kaspad-client.js';
import type { RpcBlock } from './kaspad-wire.js';

/**
 * With backups, a template or heartbeat call to one node waits this long before the next node is
 * asked (alone, a node gets its client's own timeout: there is no one else to ask).
 */
export const KAS_NODE_CALL_TIMEOUT_MS = 3_000;
/** How often the node in use is asked for its DAG info when no other call answered meanwhile. */
const HEARTBEAT_MS = 1_000;
/** How often the silence rule is checked. */
const CHECK_MS = 1_000;
/** While a backup serves, how often the primary is asked whether it can take over again. */
export const FAILBACK_PROBE_MS = 10_000;

/** What the template source needs of kaspad: one node, or this set of them. */
export interface KaspaWorkNode {
  getBlockTemplate(payAddress: string, extraData: string): Promise<{ block: RpcBlock; isSynced: boolean }>;
  submitBlock(block: RpcBlock): Promise<SubmitBlockResult>;
  onNewBlockTemplate(listener: () => void): Promise<() => void>;
}

export interface KaspadNodesOptions {
  coin: string;
  /** The primary first, then the backups in the order they are tried. */
  nodes: readonly KaspadClient[];
  silenceMs: number;
  logger: Logger;
}

export class KaspadNodes implements KaspaWorkNode {
  readonly health: NodeHealth;
  private current: KaspadClient;
  /** Per-call timeout while failing over (undefined: the client's own). */
  private readonly callTimeoutMs: number | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private lastAnswerMs = 0;
  private heartbeat: Promise<unknown> | undefined;
  private lastProbeMs = 0;
  private closed = false;

  constructor(private readonly options: KaspadNodesOptions) {
    const primary = options.nodes[0];
    if (!primary) throw new Error('KaspadNodes: no node');
    this.current = primary;
    this.callTimeoutMs = options.nodes.length > 1 ? KAS_NODE_CALL_TIMEOUT_MS : undefined;
    this.health = new NodeHealth({
      coin: options.coin,
      silenceMs: options.silenceMs,
      checkIntervalMs: CHECK_MS,
      logger: options.logger,
    });
    this.timers.push(setInterval(() => this.health.check(), CHECK_MS).unref());
    this.timers.push(setInterval(() => this.beat(), HEARTBEAT_MS).unref());
  }

  /** The node templates come from now (the primary until a failover). */
  get inUse(): KaspadClient {
    return this.current;
  }

  availability(): NodeAvailability {
    return this.health.availability();
  }

  onAvailability(listener: AvailabilityListener): () => void {
    return this.health.onChange(listener);
  }

  getBlockTemplate(payAddress: string, extraData: string): Promise<{ block: RpcBlock; isSynced: boolean }> {
    return this.failover((node) => node.getBlockTemplate(payAddress, extraData, this.callTimeoutMs));
  }

  /**
   * To every node at once: the first acceptance answers (a frozen node is not waited for);
   * when none accepts, the first node's refusal, or its failure when no node answered.
   */
  async submitBlock(block: RpcBlock): Promise<SubmitBlockResult> {
    const attempts = this.options.nodes.map((node) => node.submitBlock(block));
    const accepting = attempts.map(async (attempt) => {
      const result = await attempt;
      if (!result.accepted) throw new Error('refused by this node');
      return result;
    });
    try {
      return await Promise.any(accepting);
    } catch {
      const results = await Promise.allSettled(attempts);
      const refused = results.find((r) => r.status === 'fulfilled');
      if (refused?.status === 'fulfilled') return refused.value;
      throw (results[0] as PromiseRejectedResult).reason;
    }
  }

  /** Follows every node's announcements; resolves once one node confirmed its subscription. */
  async onNewBlockTemplate(listener: () => void): Promise<() => void> {
    const subscriptions = this.options.nodes.map((node) =>
      node.onNewBlockTemplate(listener).catch((err: unknown) => {
        // The client subscribes again by itself once the node is back (kaspad-client.ts).
        this.options.logger.warn(
          { err, coin: this.options.coin, node: node.address },
          'KAS node: no NewBlockTemplate subscription yet',
        );
        return undefined;
      }),
    );
    const offs = await Promise.all(subscriptions);
    if (offs.every((off) => off === undefined))
      throw new RpcError('transport', 'notifyNewBlockTemplateRequest', 'no KAS node took the subscription');
    return () => {
      for (const off of offs) off?.();
    };
  }

  /** Stops the heartbeat and the silence checks (the clients are closed by their owner). */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
  }

  private async failover<T>(call: (node: KaspadClient) => Promise<T>): Promise<T> {
    this.probePrimary();
    const order = [this.current, ...this.options.nodes.filter((n) => n !== this.current)];
    let last: unknown;
    for (const node of order) {
      const sentAt = Date.now();
      try {
        const value = await call(node);
        this.answered(sentAt);
        if (node !== this.current) {
          this.options.logger.warn(
            { coin: this.options.coin, from: this.current.address, to: node.address },
            'KAS node failover',
          );
          this.current = node;
        }
        return value;
      } catch (err) {
        // A node's own refusal of a good request is an answer; only silence and transport move on.
        if (err instanceof RpcError && err.kind === 'rpc') {
          this.answered(sentAt);
          throw err;
        }
        last = err;
      }
    }
    throw last;
  }

  private answered(sentAtMs: number): void {
    this.lastAnswerMs = Date.now();
    this.health.answered(sentAtMs);
  }

  /** Asks the node in use (failing over) for its DAG info when nothing answered for a beat. */
  private beat(): void {
    if (this.closed || this.heartbeat || Date.now() - this.lastAnswerMs < HEARTBEAT_MS) return;
    this.heartbeat = this.failover((node) => node.call('getBlockDagInfoRequest', {}, this.callTimeoutMs))
      .catch(() => undefined)
      .finally(() => (this.heartbeat = undefined));
  }

  /** While a backup serves: the primary again once it answers within the call timeout. */
  private probePrimary(): void {
    const primary = this.options.nodes[0]!;
    if (this.current === primary || Date.now() - this.lastProbeMs < FAILBACK_PROBE_MS) return;
    this.lastProbeMs = Date.now();
    primary
      .request('getBlockDagInfoRequest', {}, KAS_NODE_CALL_TIMEOUT_MS)
      .then(() => {
        if (this.closed || this.current === primary) return;
        this.options.logger.warn(
          { coin: this.options.coin, from: this.current.address, to: primary.address },
          'KAS node failback: the primary answers again',
        );
        this.current = primary;
      })
      .catch(() => undefined);
  }
}
