import { describe, expect, it } from 'vitest';
import { submitBlock, submitBlockToAll, type SubmitNode } from './block-submitter.js';
import { RpcError } from '../../../rpc/json-rpc.js';

const HASH = 'aa'.repeat(32);
const OTHER = 'bb'.repeat(32);
const expected = { height: 500, hash: HASH };

/** A node whose answers are scripted: what submitblock says, and the chain it shows after. */
function fakeNode(opts: {
  submit: () => Promise<string | null>;
  tip: string;
  atHeight?: string;
  outOfRange?: boolean;
  /** The node holds the block (on some branch): its header is known. */
  holds?: boolean;
}): SubmitNode & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    submitBlock: () => {
      calls.push('submitblock');
      return opts.submit();
    },
    getBestBlockHash: () => {
      calls.push('getbestblockhash');
      return Promise.resolve(opts.tip);
    },
    getBlockHash: () => {
      calls.push('getblockhash');
      if (opts.outOfRange)
        return Promise.reject(new RpcError('rpc', 'getblockhash', 'Block height out of range', -8));
      return Promise.resolve(opts.atHeight ?? opts.tip);
    },
    getBlockHeader: (hash) => {
      calls.push('getblockheader');
      if (!opts.holds) return Promise.reject(new RpcError('rpc', 'getblockheader', 'Block not found', -5));
      return Promise.resolve({
        hash,
        confirmations: -1,
        height: expected.height,
        version: 0x20000000,
        merkleroot: '00'.repeat(32),
        time: 0,
        mediantime: 0,
        bits: '207fffff',
        difficulty: 0,
      });
    },
  };
}

describe('submitting a found block', () => {
  it('calls a block accepted only once it is on the node’s main chain', async () => {
    const node = fakeNode({ submit: () => Promise.resolve(null), tip: HASH });
    expect(await submitBlock(node, '00', expected)).toMatchObject({
      status: 'accepted',
      nodeResult: null,
      tipHash: HASH,
    });
  });

  it('accepts a block the node already had when it is at the expected height', async () => {
    const node = fakeNode({ submit: () => Promise.resolve('duplicate'), tip: OTHER, atHeight: HASH });
    expect(await submitBlock(node, '00', expected)).toMatchObject({
      status: 'accepted',
      nodeResult: 'duplicate',
    });
  });

  it('reports the node’s reason at once when it rejects the block', async () => {
    const node = fakeNode({ submit: () => Promise.resolve('high-hash'), tip: OTHER });
    const started = Date.now();
    const result = await submitBlock(node, '00', expected, { confirmTimeoutMs: 5_000 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(result).toMatchObject({ status: 'rejected', nodeResult: 'high-hash', tipHash: OTHER });
    expect(result.detail).toMatch(/node rejected the block: high-hash/);
  });

  it('treats an RPC error from submitblock as the node’s rejection', async () => {
    const node = fakeNode({
      submit: () => Promise.reject(new RpcError('rpc', 'submitblock', 'Block decode failed', -22)),
      tip: OTHER,
    });
    expect(await submitBlock(node, 'zz', expected)).toMatchObject({
      status: 'rejected',
      nodeResult: 'submitblock: Block decode failed',
    });
  });

  it('still finds the block on chain when the submission lost its connection', async () => {
    const node = fakeNode({
      submit: () => Promise.reject(new RpcError('transport', 'submitblock', 'ECONNRESET')),
      tip: HASH,
    });
    expect(await submitBlock(node, '00', expected)).toMatchObject({ status: 'accepted' });
  });

  it('says unknown, not accepted, when the node answered null but the block never became the tip', async () => {
    const node = fakeNode({ submit: () => Promise.resolve(null), tip: OTHER, outOfRange: true });
    const result = await submitBlock(node, '00', expected, { confirmTimeoutMs: 150, confirmIntervalMs: 50 });
    expect(result).toMatchObject({ status: 'unknown', nodeResult: null, tipHash: OTHER });
    expect(node.calls.filter((c) => c === 'getbestblockhash').length).toBeGreaterThan(1);
  });

  it('says side_branch when the node holds the block but another block is on the main chain at its height', async () => {
    const node = fakeNode({ submit: () => Promise.resolve(null), tip: OTHER, atHeight: OTHER, holds: true });
    const result = await submitBlock(node, '00', expected, { confirmTimeoutMs: 0 });
    expect(result).toMatchObject({ status: 'side_branch', nodeResult: null, tipHash: OTHER });
    expect(result.detail).toMatch(/side branch/);
  });

  it('never calls a refused block side_branch, even one whose header the node knows', async () => {
    const node = fakeNode({ submit: () => Promise.resolve('bad-txns'), tip: OTHER, holds: true });
    expect((await submitBlock(node, '00', expected)).status).toBe('rejected');
  });

  it('says unknown when the submission timed out and the chain does not show the block', async () => {
    const node = fakeNode({
      submit: () => Promise.reject(new RpcError('timeout', 'submitblock', 'no answer')),
      tip: OTHER,
    });
    const result = await submitBlock(node, '00', expected, { confirmTimeoutMs: 0 });
    expect(result.status).toBe('unknown');
    expect(result.detail).toMatch(/did not get an answer/);
  });
});

describe('submitting a found block to every node of a coin', () => {
  it('calls the block accepted when any node has it on its main chain', async () => {
    const dead = fakeNode({
      submit: () => Promise.reject(new RpcError('transport', 'submitblock', 'cannot reach node')),
      tip: OTHER,
    });
    const alive = fakeNode({ submit: () => Promise.resolve(null), tip: HASH });
    const result = await submitBlockToAll([dead, alive], '00', expected, { confirmTimeoutMs: 0 });
    expect(result).toMatchObject({ status: 'accepted', nodeResult: null });
    expect(dead.calls[0]).toBe('submitblock');
    expect(alive.calls[0]).toBe('submitblock');
  });

  it('takes a node’s rejection over a node that could not be reached', async () => {
    const dead = fakeNode({
      submit: () => Promise.reject(new RpcError('transport', 'submitblock', 'cannot reach node')),
      tip: OTHER,
    });
    const rejecting = fakeNode({ submit: () => Promise.resolve('high-hash'), tip: OTHER, outOfRange: true });
    expect(await submitBlockToAll([dead, rejecting], '00', expected, { confirmTimeoutMs: 0 })).toMatchObject({
      status: 'rejected',
      nodeResult: 'high-hash',
    });
  });
});
