// The DAG reader over a small DAG written by hand (shapes kaspad does not make on demand: a block
// merged by a grandchild, a chain block merging it red); the real kaspad cases are in
// wallet.int.test.ts.
import { describe, expect, it } from 'vitest';
import { RpcError } from '../../rpc/json-rpc.js';
import { isMergedBlue, scanTransactions, type DagNode, type PlacedTransaction } from './dag-reader.js';
import type { RpcBlock, RpcMempoolEntry, RpcTransaction } from './kaspad-wire.js';

interface Spec {
  chain?: boolean;
  blueScore: number;
  children?: string[];
  selectedParent?: string;
  blues?: string[];
  reds?: string[];
  /** Seconds since the epoch. */
  time?: number;
  /** Txids of its transactions after the coinbase. */
  txs?: string[];
}

function transaction(txid: string, address = `kaspasim:to-${txid}`): RpcTransaction {
  return {
    version: 0,
    inputs: [],
    outputs: [
      {
        amount: '100',
        scriptPublicKey: null,
        verboseData: { scriptPublicKeyType: 'pubkey', scriptPublicKeyAddress: address },
      },
    ],
    lockTime: '0',
    subnetworkId: '',
    gas: '0',
    payload: '',
    mass: '0',
    verboseData: { transactionId: txid, hash: txid, mass: '0', blockHash: '', blockTime: '0' },
  };
}

function block(hash: string, spec: Spec): RpcBlock {
  return {
    header: {
      version: 1,
      parents: [],
      hashMerkleRoot: '',
      acceptedIdMerkleRoot: '',
      utxoCommitment: '',
      timestamp: String((spec.time ?? 1_000) * 1000),
      bits: 0,
      nonce: '0',
      daaScore: String(spec.blueScore),
      blueWork: '0',
      pruningPoint: '',
      blueScore: String(spec.blueScore),
    },
    transactions: [transaction(`coinbase-${hash}`), ...(spec.txs ?? []).map((txid) => transaction(txid))],
    verboseData: {
      hash,
      difficulty: 1,
      selectedParentHash: spec.selectedParent ?? '',
      transactionIds: [],
      isHeaderOnly: false,
      blueScore: String(spec.blueScore),
      childrenHashes: spec.children ?? [],
      mergeSetBluesHashes: spec.blues ?? [],
      mergeSetRedsHashes: spec.reds ?? [],
      isChainBlock: spec.chain ?? false,
    },
  };
}

/**
 * A DAG in topological order; one virtual parent. GetBlocks answers from lowHash up to the next
 * chain block (as kaspad's pages end at a chain block), or to the end from the sink.
 */
function fakeNode(specs: Record<string, Spec>, opts: { mempool?: string[] } = {}): DagNode {
  const order = Object.keys(specs);
  const sink = order.filter((hash) => specs[hash]!.chain).at(-1)!;
  const get = (hash: string): RpcBlock => {
    const spec = specs[hash];
    if (!spec) throw new RpcError('rpc', 'getBlockRequest', `Block ${hash} not found`);
    return block(hash, spec);
  };
  return {
    getBlock: (hash) => Promise.resolve().then(() => get(hash)),
    getBlocks: (low) => {
      const from = order.indexOf(low);
      const next = order.findIndex((hash, index) => index > from && specs[hash]!.chain);
      return Promise.resolve(order.slice(from, next < 0 ? undefined : next + 1).map(get));
    },
    getBlockDagInfo: () =>
      Promise.resolve({
        error: null,
        networkName: 'kaspa-simnet',
        blockCount: String(order.length),
        headerCount: String(order.length),
        tipHashes: [sink],
        difficulty: 1,
        pastMedianTime: '0',
        virtualParentHashes: [sink],
        pruningPointHash: order[0]!,
        virtualDaaScore: '100',
      }),
    getMempoolEntries: () =>
      Promise.resolve(
        (opts.mempool ?? []).map((txid): RpcMempoolEntry => ({
          fee: '1',
          transaction: transaction(txid),
          isOrphan: false,
        })),
      ),
  };
}

// g <- a (found) <- b ; g <- s1 ; c merges s1 (selected parent), a and b ; d on c.
const MERGED_BY_GRANDCHILD: Record<string, Spec> = {
  g: { chain: true, blueScore: 1, children: ['a', 's1'], time: 100 },
  s1: { chain: true, blueScore: 2, children: ['c'], selectedParent: 'g', blues: ['g'], time: 200 },
  a: { blueScore: 2, children: ['b'], selectedParent: 'g', time: 200, txs: ['t-a'] },
  b: { blueScore: 3, children: ['c'], selectedParent: 'a', time: 300, txs: ['t-b'] },
  c: { chain: true, blueScore: 5, children: ['d'], selectedParent: 's1', blues: ['s1', 'a', 'b'], time: 400 },
  d: { chain: true, blueScore: 6, selectedParent: 'c', blues: ['c'], time: 500, txs: ['t-d'] },
};

describe('whether a Kaspa block is held (merged blue by a chain block)', () => {
  it('holds a block that the lowest chain block in its future, a grandchild, merged as blue', async () => {
    expect(await isMergedBlue(fakeNode(MERGED_BY_GRANDCHILD), 'a')).toBe(true);
  });

  it('does not hold a block that chain block merged as red', async () => {
    const red = {
      ...MERGED_BY_GRANDCHILD,
      c: { ...MERGED_BY_GRANDCHILD.c!, blues: ['s1', 'b'], reds: ['a'] },
    };
    expect(await isMergedBlue(fakeNode(red), 'a')).toBe(false);
  });

  it('holds a chain block once the next chain block exists, not the sink that no block merged yet', async () => {
    const node = fakeNode(MERGED_BY_GRANDCHILD);
    expect([await isMergedBlue(node, 'c'), await isMergedBlue(node, 'd')]).toEqual([true, false]);
  });

  it('does not hold a hash the node does not know, and passes on a node it cannot reach', async () => {
    const node = fakeNode(MERGED_BY_GRANDCHILD);
    expect(await isMergedBlue(node, 'e'.repeat(64))).toBe(false);
    const down: DagNode = {
      ...node,
      getBlock: () =>
        Promise.reject(new RpcError('transport', 'getBlockRequest', 'the node ended the stream')),
    };
    await expect(isMergedBlue(down, 'a')).rejects.toMatchObject({ kind: 'transport' });
  });
});

describe('reading the transactions since a time from the DAG', () => {
  const scan = async (node: DagNode, since: number, stopAt?: string): Promise<PlacedTransaction[]> => {
    const seen: PlacedTransaction[] = [];
    await scanTransactions(node, since, (placed) => (seen.push(placed), placed.txid === stopAt));
    return seen;
  };

  it('reads every block from the chain block before that time, page by page, each once and without coinbases, then the mempool', async () => {
    const node = fakeNode(MERGED_BY_GRANDCHILD, { mempool: ['t-pool'] });
    const seen = await scan(node, 250);
    expect(seen.map((placed) => placed.txid)).toEqual(['t-a', 't-b', 't-d', 't-pool']);
    expect(seen.map((placed) => placed.daaScore)).toEqual([2n, 3n, 6n, undefined]);
  });

  it('starts later for a later time, and stops where the visitor says', async () => {
    const node = fakeNode(MERGED_BY_GRANDCHILD, { mempool: ['t-pool'] });
    expect((await scan(node, 450)).map((placed) => placed.txid)).toEqual(['t-d', 't-pool']);
    expect((await scan(node, 0, 't-b')).map((placed) => placed.txid)).toEqual(['t-a', 't-b']);
  });
});
