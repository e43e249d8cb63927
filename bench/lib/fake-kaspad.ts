// A kaspad stand-in for the kheavyhash phase (the pool's KaspaWorkNode, in the pool's process):
// mainnet block be95d8f3…e54c's header (mainnet bits: no share of the bench is a block) as a
// template paying the pool, re-announced `rate` times a second the way kaspad announces
// NewBlockTemplate on mainnet (ten a second since Crescendo). Each announcement is a new
// template: a later timestamp and a new first parent, so every template has a new pre-PoW hash
// and new parents, the worst case for the pool's job limit.
import { MAINNET_BLOCK } from '../../packages/protocol/test/kaspa/test-fixtures.js';
import type { SubmitBlockResult } from '../../apps/server/src/coins/kaspa/kaspad-client.js';
import type { KaspaWorkNode } from '../../apps/server/src/coins/kaspa/kaspad-nodes.js';
import type { RpcBlock, RpcTransaction } from '../../apps/server/src/coins/kaspa/kaspad-wire.js';

/** Sompi a mainnet block earned at the header's DAA score (what the coinbase payload says). */
const SUBSIDY = 14_000_000_000n;

function u64le(value: bigint): string {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(value);
  return bytes.toString('hex');
}

/** A coinbase whose payload is the layout kaspad writes: blue score, subsidy, script, extra data. */
function coinbase(): RpcTransaction {
  const script = MAINNET_BLOCK.coinbaseScript;
  const payload =
    u64le(BigInt(MAINNET_BLOCK.header.blueScore)) +
    u64le(SUBSIDY) +
    '0000' +
    (script.length / 2).toString(16).padStart(2, '0') +
    script +
    Buffer.from('manjam-bench').toString('hex');
  return {
    version: 0,
    inputs: [],
    outputs: [],
    lockTime: '0',
    subnetworkId: '0100000000000000000000000000000000000000',
    gas: '0',
    payload,
    mass: '0',
    verboseData: null,
  };
}

export class FakeKaspad implements KaspaWorkNode {
  /** NewBlockTemplate announcements sent, GetBlockTemplate calls answered. */
  readonly figures = { announced: 0, fetched: 0 };
  private readonly listeners = new Set<() => void>();
  private readonly transaction = coinbase();
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;

  /** Announces a new template `perSecond` times a second (0: none). */
  setRate(perSecond: number): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (perSecond <= 0) return;
    this.timer = setInterval(() => {
      this.seq++;
      this.figures.announced++;
      for (const listener of this.listeners) listener();
    }, 1000 / perSecond);
  }

  getBlockTemplate(): Promise<{ block: RpcBlock; isSynced: boolean }> {
    this.figures.fetched++;
    const header = MAINNET_BLOCK.header;
    const first = (BigInt(`0x${header.parents[0]!.parentHashes[0]!}`) + BigInt(this.seq)) % 2n ** 256n;
    const block: RpcBlock = {
      header: {
        ...header,
        parents: [{ parentHashes: [first.toString(16).padStart(64, '0')] }, ...header.parents.slice(1)],
        timestamp: String(BigInt(header.timestamp) + BigInt(this.seq)),
      },
      transactions: [this.transaction],
      verboseData: null,
    };
    return Promise.resolve({ block, isSynced: true });
  }

  submitBlock(): Promise<SubmitBlockResult> {
    return Promise.resolve({ accepted: false, rejectReason: 'BLOCK_INVALID', message: 'bench node' });
  }

  onNewBlockTemplate(listener: () => void): Promise<() => void> {
    this.listeners.add(listener);
    return Promise.resolve(() => this.listeners.delete(listener));
  }

  close(): void {
    this.setRate(0);
  }
}
