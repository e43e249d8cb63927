// Submits a found block and checks on the node whether it really became part of the main chain:
// submitblock's answer alone is not enough (bcoin answers null for blocks that did not become
// the tip; Core answers "inconclusive" or "duplicate"; a lost connection answers nothing).
import { setTimeout as delay } from 'node:timers/promises';
import type { ChainNode } from './node.js';
import { RpcError } from '../../../rpc/json-rpc.js';
import { BLOCK_SUBMIT_STATUSES } from '../../../stratum/source.js';

export const SUBMIT_STATUSES = BLOCK_SUBMIT_STATUSES;
export type SubmitStatus = (typeof SUBMIT_STATUSES)[number];

export interface SubmitResult {
  status: SubmitStatus;
  /** What submitblock answered: null (accepted), a reason string, or the error message. */
  nodeResult: string | null;
  /** The node's best block hash when we last looked. */
  tipHash?: string;
  /** Plain words on how the status was decided. */
  detail: string;
}

export interface SubmitOptions {
  /** How long to keep checking the chain for a block the node did not reject (ms). */
  confirmTimeoutMs?: number;
  confirmIntervalMs?: number;
}

/** The node calls the submitter needs (a ChainNode has them all). */
export type SubmitNode = Pick<
  ChainNode,
  'submitBlock' | 'getBestBlockHash' | 'getBlockHash' | 'getBlockHeader'
>;

interface Expected {
  height: number;
  hash: string;
}

/** Answers that mean "not a rejection": the node may still have (or later get) the block. */
const NOT_REJECTED = new Set(['inconclusive', 'duplicate', 'duplicate-inconclusive']);

async function onMainChain(
  node: SubmitNode,
  expected: Expected,
): Promise<{ yes: boolean; tipHash?: string }> {
  const tipHash = await node.getBestBlockHash();
  if (tipHash === expected.hash) return { yes: true, tipHash };
  try {
    return { yes: (await node.getBlockHash(expected.height)) === expected.hash, tipHash };
  } catch (err) {
    // -8 "Block height out of range": the chain is shorter than our block's height.
    if (err instanceof RpcError && err.kind === 'rpc') return { yes: false, tipHash };
    throw err;
  }
}

/** Whether the node holds the block at all (on any branch): it knows its header. */
async function holds(node: SubmitNode, hash: string): Promise<boolean> {
  try {
    return (await node.getBlockHeader(hash)).hash === hash;
  } catch {
    return false;
  }
}

async function send(
  node: SubmitNode,
  blockHex: string,
): Promise<{ nodeResult: string | null; failed: boolean; lost: boolean }> {
  try {
    return { nodeResult: await node.submitBlock(blockHex), failed: false, lost: false };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // An RPC error is the node's verdict (e.g. -22 "Block decode failed"); a transport error
    // or a timeout leaves us not knowing whether the block arrived.
    const lost = !(err instanceof RpcError && (err.kind === 'rpc' || err.kind === 'http'));
    return { nodeResult: message, failed: !lost, lost };
  }
}

/**
 * Submits `blockHex` and confirms it by getbestblockhash / getblockhash(height). Never throws:
 * the caller records whatever comes back.
 */
export async function submitBlock(
  node: SubmitNode,
  blockHex: string,
  expected: Expected,
  options: SubmitOptions = {},
): Promise<SubmitResult> {
  const { nodeResult, failed, lost } = await send(node, blockHex);
  const rejected = failed || (!lost && nodeResult !== null && !NOT_REJECTED.has(nodeResult));
  const deadline = Date.now() + (rejected ? 0 : (options.confirmTimeoutMs ?? 3_000));
  let tipHash: string | undefined;
  let lastError: string | undefined;
  for (;;) {
    try {
      const check = await onMainChain(node, expected);
      tipHash = check.tipHash;
      if (check.yes) {
        return {
          status: 'accepted',
          nodeResult,
          tipHash,
          detail: `block ${expected.hash} is on the main chain at height ${expected.height}`,
        };
      }
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
    }
    if (Date.now() >= deadline) break;
    await delay(options.confirmIntervalMs ?? 100);
  }
  const where = tipHash
    ? `; node tip is ${tipHash}`
    : lastError
      ? `; could not check the chain: ${lastError}`
      : '';
  if (rejected) {
    return {
      status: 'rejected',
      nodeResult,
      ...(tipHash ? { tipHash } : {}),
      detail: `node rejected the block: ${nodeResult}${where}`,
    };
  }
  const why = lost ? 'the submission did not get an answer' : `node answered ${nodeResult ?? 'null'}`;
  // The node holds the block, yet another block is on the main chain at its height: it lost the
  // race (bcoin answers null for it, Core "inconclusive"). Said as such, not left unknown.
  if (tipHash !== undefined && (await holds(node, expected.hash))) {
    return {
      status: 'side_branch',
      nodeResult,
      tipHash,
      detail: `${why}; the node holds the block on a side branch${where}`,
    };
  }
  return {
    status: 'unknown',
    nodeResult,
    ...(tipHash ? { tipHash } : {}),
    detail: `${why} but the block is not on the main chain${where}`,
  };
}

/**
 * Submits `blockHex` to every node of a coin at once (a backup node may be the only one that
 * still reaches the network). The block counts as accepted when any node has it on its main
 * chain; otherwise as on a side branch when a node holds it there; otherwise a node's rejection
 * is the verdict; otherwise the outcome is unknown.
 */
export async function submitBlockToAll(
  nodes: readonly SubmitNode[],
  blockHex: string,
  expected: Expected,
  options: SubmitOptions = {},
): Promise<SubmitResult> {
  const results = await Promise.all(nodes.map((node) => submitBlock(node, blockHex, expected, options)));
  const verdict =
    results.find((r) => r.status === 'accepted') ??
    results.find((r) => r.status === 'side_branch') ??
    results.find((r) => r.status === 'rejected') ??
    results[0];
  if (!verdict) throw new Error('submitBlockToAll needs at least one node');
  if (results.length === 1) return verdict;
  return { ...verdict, detail: results.map((r, i) => `node ${i + 1}: ${r.detail}`).join('; ') };
}
