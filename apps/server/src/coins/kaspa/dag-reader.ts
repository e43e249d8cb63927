// What accounting reads of kaspad's DAG (v0.12.22 RPC facts, no index beyond --utxoindex):
// - whether a found block's reward counts: a Kaspa block is paid (its coinbase value goes into
//   the coinbase of the chain block that merges it) only when that chain block merges it as BLUE.
//   The merging chain block is the lowest chain block in the block's future; it is found by
//   walking `childrenHashes` forward and stopping at chain blocks (a chain block's own future
//   holds only higher chain blocks). Chain blocks list their selected parent first among their
//   mergeSetBluesHashes (ghostdag.go), so a chain block is held once the next chain block exists.
// - the transactions accepted since a time: the selected chain is walked back from the sink
//   (GetBlock's selectedParentHash) to the first block older than that time, then read forward
//   page by page (GetBlocks, MergeSetSizeLimit + 1 blocks a page) with their transactions.
import { RpcError } from '../../rpc/json-rpc.js';
import type { KaspadClient } from './kaspad-client.js';
import type { RpcBlock, RpcTransaction } from './kaspad-wire.js';

/**
 * Blocks visited at most looking for a found block's merging chain block. A block normally has a
 * chain block among its children or grandchildren; past this many it is "not merged yet" for now.
 */
export const KASPA_MERGE_SEARCH_BLOCKS = 500;
/** Chain blocks walked back at most to find where a time window starts (then: from there). */
export const KASPA_WALK_BACK_BLOCKS = 20_000;

/** What the reader asks of kaspad (a KaspadClient). */
export type DagNode = Pick<KaspadClient, 'getBlock' | 'getBlocks' | 'getBlockDagInfo' | 'getMempoolEntries'>;

/** kaspad's words for a hash it does not know (app/rpc/rpchandlers/get_block.go). */
function isUnknownBlock(error: unknown): boolean {
  return error instanceof RpcError && error.kind === 'rpc' && /Block \S+ not found/.test(error.message);
}

async function blockOrUndefined(node: DagNode, hash: string): Promise<RpcBlock | undefined> {
  try {
    return await node.getBlock(hash, false);
  } catch (error) {
    if (isUnknownBlock(error)) return undefined;
    throw error;
  }
}

/**
 * Where a block stands: 'blue' or 'red' once the lowest chain block in its future merged it,
 * 'unmerged' while kaspad holds it and no chain block has merged it yet (the sink, or a block
 * more than KASPA_MERGE_SEARCH_BLOCKS away from one), 'unknown' when kaspad does not hold it (or
 * holds only its header).
 */
export type MergeStatus = 'blue' | 'red' | 'unmerged' | 'unknown';

export async function mergeStatus(node: DagNode, hash: string): Promise<MergeStatus> {
  const found = await blockOrUndefined(node, hash);
  if (!found?.verboseData || found.verboseData.isHeaderOnly) return 'unknown';
  let merging: RpcBlock | undefined;
  const queue = [...found.verboseData.childrenHashes];
  const seen = new Set(queue);
  for (let visited = 0; queue.length > 0 && visited < KASPA_MERGE_SEARCH_BLOCKS; visited++) {
    const block = await blockOrUndefined(node, queue.shift()!);
    const data = block?.verboseData;
    if (!data) continue;
    if (data.isChainBlock) {
      if (!merging || BigInt(data.blueScore) < BigInt(merging.verboseData!.blueScore)) merging = block;
      continue; // its future holds only higher chain blocks
    }
    for (const child of data.childrenHashes.filter((hash) => !seen.has(hash))) {
      seen.add(child);
      queue.push(child);
    }
  }
  if (!merging?.verboseData) return 'unmerged';
  return merging.verboseData.mergeSetBluesHashes.includes(hash) ? 'blue' : 'red';
}

/** True when kaspad knows the block and a chain block merged it as blue; false otherwise. */
export async function isMergedBlue(node: DagNode, hash: string): Promise<boolean> {
  return (await mergeStatus(node, hash)) === 'blue';
}

/** A transaction with the block that holds it (absent: still in the mempool). */
export interface PlacedTransaction {
  transaction: RpcTransaction;
  txid: string;
  /** DAA score of the block holding it. */
  daaScore?: bigint;
  /** Unix seconds: the block's time, or when it was read from the mempool. */
  time: number;
}

function txidOf(transaction: RpcTransaction): string {
  return transaction.verboseData?.transactionId ?? '';
}

/** The sink: the virtual's selected parent, i.e. the chain block whose selectedParent chain is the DAG's. */
async function sinkOf(node: DagNode): Promise<RpcBlock> {
  const dag = await node.getBlockDagInfo();
  // Each virtual parent's chain leads to the sink; the highest blue score among them is it.
  let best: RpcBlock | undefined;
  for (const hash of dag.virtualParentHashes) {
    const block = await node.getBlock(hash, false);
    if (!best || BigInt(block.verboseData!.blueScore) > BigInt(best.verboseData!.blueScore)) best = block;
  }
  if (!best) throw new RpcError('rpc', 'getBlockDagInfoRequest', 'the node named no virtual parent');
  return best;
}

/** The chain block whose time is before `sinceUnixSeconds` (or the oldest one reached). */
async function chainBlockBefore(node: DagNode, sinceUnixSeconds: number): Promise<string> {
  let block = await sinkOf(node);
  for (let steps = 0; steps < KASPA_WALK_BACK_BLOCKS; steps++) {
    const parent = block.verboseData?.selectedParentHash ?? '';
    if (Number(block.header!.timestamp) / 1000 < sinceUnixSeconds || parent === '') break;
    const next = await blockOrUndefined(node, parent);
    if (!next?.header) break; // pruned away: start at the oldest block still known
    block = next;
  }
  return block.verboseData!.hash;
}

/**
 * Calls `visit` with every non-coinbase transaction in blocks from the chain block before
 * `sinceUnixSeconds` up to the DAG's tips, then with the mempool's; stops early when `visit`
 * answers true. A transaction held by several blocks (merged twice) is visited once per block.
 */
export async function scanTransactions(
  node: DagNode,
  sinceUnixSeconds: number,
  visit: (placed: PlacedTransaction) => boolean,
): Promise<void> {
  let low = await chainBlockBefore(node, sinceUnixSeconds);
  const seen = new Set<string>(); // a page starts at the previous one's last chain block
  for (;;) {
    const page = await node.getBlocks(low);
    for (const block of page) {
      const hash = block.verboseData?.hash ?? '';
      if (seen.has(hash)) continue;
      seen.add(hash);
      const daaScore = BigInt(block.header?.daaScore ?? '0');
      const time = Math.floor(Number(block.header?.timestamp ?? '0') / 1000);
      for (const transaction of block.transactions.slice(1))
        if (visit({ transaction, txid: txidOf(transaction), daaScore, time })) return;
    }
    const chain = page.filter((block) => block.verboseData?.isChainBlock);
    const next = chain[chain.length - 1]?.verboseData?.hash;
    if (next === undefined || next === low) break;
    low = next;
  }
  const now = Math.floor(Date.now() / 1000);
  for (const entry of await node.getMempoolEntries()) {
    if (
      entry.transaction &&
      visit({ transaction: entry.transaction, txid: txidOf(entry.transaction), time: now })
    )
      return;
  }
}
