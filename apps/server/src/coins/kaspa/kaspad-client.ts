// kaspad's gRPC API through @grpc/grpc-js: one bidirectional stream (RPC.MessageStream) per
// connection, KaspadMessage envelopes both ways. kaspad answers each request type in the order
// it was asked, so a response is matched to the oldest waiting request of its type (one FIFO
// per response type). A request that timed out keeps its place in the FIFO until its late
// answer arrives and is dropped, so the answer never goes to a younger request.
// When the stream drops, every waiting request fails at once (kind 'transport'); the next
// request opens a new stream. While someone listens for notifications, the client reconnects
// by itself with a growing back-off, subscribes again, and calls the listeners once (a template
// may have changed while it was away). Errors are RpcError (rpc/json-rpc.ts) with kind 'transport',
// 'timeout' or 'rpc' (the node's own error message), as for the other families' nodes.
import { Client, credentials, type ClientDuplexStream } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { RpcError } from '../../rpc/json-rpc.js';
import { loadMethod } from './grpc-proto.js';
import {
  isNotificationName,
  isResponseName,
  RESPONSE_OF,
  type KaspadEnvelope,
  type KaspadNotification,
  type KaspadRequestEnvelope,
  type KaspadRequestName,
  type KaspadRequests,
  type KaspadResponseName,
  type ResponseOf,
  type RpcBlock,
  type RpcMempoolEntry,
  type SubmitRejectReason,
} from './kaspad-wire.js';

const METHOD = loadMethod('kaspad.proto', 'protowire.RPC', 'MessageStream');
/** A template of a full mainnet block is far below this; grpc-js's default (4 MB) is not. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export const KASPAD_DEFAULT_TIMEOUT_MS = 10_000;

export interface KaspadClientOptions {
  /** host:port of kaspad's gRPC listener (plaintext, as kaspad and rusty-kaspa serve it). */
  address: string;
  /** Per-request deadline (default KASPAD_DEFAULT_TIMEOUT_MS). */
  timeoutMs?: number;
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  logger?: Logger;
}

interface Waiter {
  name: KaspadRequestName;
  settled: boolean;
  resolve(body: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

export interface SubmitBlockResult {
  accepted: boolean;
  rejectReason: SubmitRejectReason;
  /** kaspad's words when it refused the block ("Block rejected. Reason: ..."). */
  message?: string;
}

type Stream = ClientDuplexStream<KaspadRequestEnvelope, KaspadEnvelope>;

export class KaspadClient {
  readonly address: string;
  private readonly grpc: Client;
  private readonly timeoutMs: number;
  private readonly minMs: number;
  private readonly maxMs: number;
  private readonly logger: Logger | undefined;
  private stream: Stream | undefined;
  private readonly waiting = new Map<KaspadResponseName, Waiter[]>();
  private readonly listeners = new Map<KaspadNotification, Set<() => void>>();
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectMs: number;
  private closed = false;

  constructor(options: KaspadClientOptions) {
    this.address = options.address;
    this.timeoutMs = options.timeoutMs ?? KASPAD_DEFAULT_TIMEOUT_MS;
    this.minMs = options.reconnectMinMs ?? 250;
    this.maxMs = options.reconnectMaxMs ?? 10_000;
    this.reconnectMs = this.minMs;
    this.logger = options.logger;
    this.grpc = new Client(options.address, credentials.createInsecure(), {
      'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
      'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
    });
  }

  /** Sends a request and resolves with its response as kaspad sent it (its `error` included). */
  call<K extends KaspadRequestName>(
    name: K,
    body: KaspadRequests[K],
    timeoutMs = this.timeoutMs,
  ): Promise<ResponseOf<K>> {
    if (this.closed) return Promise.reject(new RpcError('transport', name, 'client closed'));
    const stream = this.openStream();
    return new Promise<ResponseOf<K>>((resolve, reject) => {
      const waiter: Waiter = {
        name,
        settled: false,
        resolve: (response) => resolve(response as ResponseOf<K>),
        reject,
        timer: setTimeout(() => {
          if (waiter.settled) return;
          waiter.settled = true;
          reject(new RpcError('timeout', name, `no answer from ${this.address} within ${timeoutMs} ms`));
        }, timeoutMs),
      };
      const queueName = RESPONSE_OF[name];
      const queue = this.waiting.get(queueName) ?? [];
      queue.push(waiter);
      this.waiting.set(queueName, queue);
      const envelope: KaspadRequestEnvelope = {};
      envelope[name] = body;
      stream.write(envelope);
    });
  }

  /** Like call(), but a response carrying the node's error rejects with RpcError kind 'rpc'. */
  async request<K extends KaspadRequestName>(
    name: K,
    body: KaspadRequests[K],
    timeoutMs?: number,
  ): Promise<ResponseOf<K>> {
    const response = await this.call(name, body, timeoutMs);
    if (response.error) throw new RpcError('rpc', name, response.error.message);
    return response;
  }

  async getBlockTemplate(
    payAddress: string,
    extraData: string,
    timeoutMs?: number,
  ): Promise<{ block: RpcBlock; isSynced: boolean }> {
    const body = { payAddress, extraData };
    const { block, isSynced } = await this.request('getBlockTemplateRequest', body, timeoutMs);
    if (!block)
      throw new RpcError('rpc', 'getBlockTemplateRequest', 'the node sent a template without a block');
    return { block, isSynced };
  }

  /** Submits a solved block. A refusal is a result (with kaspad's reason), not an exception. */
  async submitBlock(block: RpcBlock, allowNonDAABlocks = false): Promise<SubmitBlockResult> {
    const response = await this.call('submitBlockRequest', { block, allowNonDAABlocks });
    if (!response.error && response.rejectReason === 'NONE') return { accepted: true, rejectReason: 'NONE' };
    const result: SubmitBlockResult = { accepted: false, rejectReason: response.rejectReason };
    if (response.error) result.message = response.error.message;
    return result;
  }

  async getBlock(hash: string, includeTransactions: boolean): Promise<RpcBlock> {
    const { block } = await this.request('getBlockRequest', { hash, includeTransactions });
    if (!block) throw new RpcError('rpc', 'getBlockRequest', `the node sent no block for ${hash}`);
    return block;
  }

  /** One page of blocks from `lowHash` (included) towards the virtual, with their transactions. */
  async getBlocks(lowHash: string): Promise<RpcBlock[]> {
    const body = { lowHash, includeBlocks: true, includeTransactions: true };
    return (await this.request('getBlocksRequest', body)).blocks;
  }

  /** A transaction of the mempool (orphans left out), or undefined when it is not there. */
  async getMempoolEntry(txId: string): Promise<RpcMempoolEntry | undefined> {
    const body = { txId, includeOrphanPool: false, filterTransactionPool: false };
    const response = await this.call('getMempoolEntryRequest', body);
    if (response.error && /was not found/.test(response.error.message)) return undefined;
    if (response.error) throw new RpcError('rpc', 'getMempoolEntryRequest', response.error.message);
    return response.entry ?? undefined;
  }

  async getMempoolEntries(): Promise<RpcMempoolEntry[]> {
    const body = { includeOrphanPool: false, filterTransactionPool: false };
    return (await this.request('getMempoolEntriesRequest', body)).entries;
  }

  getBlockDagInfo(): Promise<ResponseOf<'getBlockDagInfoRequest'>> {
    return this.request('getBlockDagInfoRequest', {});
  }

  getInfo(): Promise<ResponseOf<'getInfoRequest'>> {
    return this.request('getInfoRequest', {});
  }

  /** Confirmed balance of an address in sompi (the node must run with --utxoindex). */
  async getBalanceByAddress(address: string): Promise<bigint> {
    const { balance } = await this.request('getBalanceByAddressRequest', { address });
    return BigInt(balance);
  }

  /**
   * Calls `listener` on every NewBlockTemplate notification (and once after each reconnect).
   * Resolves once kaspad confirmed the subscription; the returned function unsubscribes.
   */
  async onNewBlockTemplate(listener: () => void): Promise<() => void> {
    const name: KaspadNotification = 'newBlockTemplateNotification';
    const set = this.listeners.get(name) ?? new Set();
    const first = set.size === 0;
    set.add(listener);
    this.listeners.set(name, set);
    if (first) await this.request('notifyNewBlockTemplateRequest', {});
    return () => set.delete(listener);
  }

  /** Ends the stream and the channel; waiting requests fail with kind 'transport'. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const stream = this.stream;
    this.stream = undefined;
    stream?.cancel();
    this.failWaiting('client closed');
    this.grpc.close();
  }

  private openStream(): Stream {
    if (this.stream) return this.stream;
    const stream: Stream = this.grpc.makeBidiStreamRequest<KaspadRequestEnvelope, KaspadEnvelope>(
      METHOD.path,
      (envelope) => METHOD.requestSerialize(envelope),
      // Decoded by our own .proto: the shape KaspadEnvelope describes.
      (bytes) => METHOD.responseDeserialize(bytes) as KaspadEnvelope,
    );
    let answered = false;
    stream.on('data', (envelope: KaspadEnvelope) => {
      answered = true;
      this.dispatch(envelope);
    });
    stream.on('error', (err: Error) => this.dropped(stream, err.message, answered));
    stream.on('end', () => this.dropped(stream, 'the node ended the stream', answered));
    this.stream = stream;
    return stream;
  }

  private dispatch(envelope: KaspadEnvelope): void {
    const name = envelope.payload;
    if (name === undefined) return; // a message our .proto subset does not describe
    if (isNotificationName(name)) {
      this.reconnectMs = this.minMs;
      for (const listener of this.listeners.get(name) ?? []) listener();
      return;
    }
    if (!isResponseName(name)) return;
    const waiter = this.waiting.get(name)?.shift();
    if (!waiter) {
      this.logger?.warn({ response: name }, 'kaspad sent a response nobody asked for');
      return;
    }
    clearTimeout(waiter.timer);
    if (waiter.settled) return; // its caller timed out already
    waiter.settled = true;
    waiter.resolve(envelope[name]);
  }

  /** `answered`: the node had spoken on this stream (else it was never up: no warning). */
  private dropped(stream: Stream, reason: string, answered: boolean): void {
    if (this.stream !== stream) return;
    this.stream = undefined;
    stream.cancel();
    this.failWaiting(reason);
    if (this.closed) return;
    if (answered) this.logger?.warn({ address: this.address, reason }, 'kaspad stream dropped');
    else this.logger?.debug({ address: this.address, reason }, 'kaspad unreachable');
    const listening = [...this.listeners.values()].some((set) => set.size > 0);
    if (listening && !this.reconnectTimer) this.scheduleReconnect();
  }

  private failWaiting(reason: string): void {
    for (const queue of this.waiting.values()) {
      for (const waiter of queue.splice(0)) {
        clearTimeout(waiter.timer);
        if (waiter.settled) continue;
        waiter.settled = true;
        waiter.reject(new RpcError('transport', waiter.name, `${this.address}: ${reason}`));
      }
    }
  }

  private scheduleReconnect(): void {
    const inMs = this.reconnectMs;
    this.reconnectMs = Math.min(this.maxMs, this.reconnectMs * 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.resubscribe();
    }, inMs);
  }

  private async resubscribe(): Promise<void> {
    if (this.closed) return;
    try {
      await this.request('notifyNewBlockTemplateRequest', {});
    } catch (err) {
      // A transport failure has scheduled the next attempt already (dropped()).
      if (!(err instanceof RpcError && err.kind === 'transport') && !this.reconnectTimer)
        this.scheduleReconnect();
      return;
    }
    this.reconnectMs = this.minMs;
    this.logger?.info({ address: this.address }, 'kaspad stream back; notifications resubscribed');
    for (const listener of this.listeners.get('newBlockTemplateNotification') ?? []) listener();
  }
}
