import net from 'node:net';
import { jobFromTemplate, coinParams, addressToOutputScript, nodeAmountToBaseUnits } from '@manjam/protocol';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../devchain/child.js';
import { type DevChain } from '../devchain/index.js';
import { startBtcTestChain, startLtcTestChain } from '../../../../test/support/devchain/snapshot.js';
import { submitBlock } from './block-submitter.js';
import { ChainNode } from './node.js';
import { RpcClient, RpcError } from '../../../rpc/json-rpc.js';
import { mineBlockFromTemplate } from '../../../../test/support/coins/bitcoin/node/mine-block.js';

const logger = pino({ level: 'warn' });

const cases = [
  { coin: 'BTC', start: () => startBtcTestChain({ logger }) },
  { coin: 'LTC', start: () => startLtcTestChain({ logger, mweb: 'activate' }) },
] as const;

interface TxOut {
  value: number;
  scriptPubKey: { address?: string; addresses?: string[] };
}

/** address -> value (base units) of a transaction's unspent outputs, read from the node. */
async function outputsOf(node: ChainNode, txid: string): Promise<Map<string, bigint>> {
  const outputs = new Map<string, bigint>();
  for (let vout = 0; vout < 10; vout++) {
    const out = await node.rpc.call<TxOut | null>('gettxout', [txid, vout, true]);
    if (!out) continue;
    const address = out.scriptPubKey.address ?? out.scriptPubKey.addresses?.[0];
    if (address) outputs.set(address, nodeAmountToBaseUnits(out.value, 8));
  }
  return outputs;
}

describe.each(cases)('a $coin node through ChainNode', ({ coin, start }) => {
  let chain: DevChain;
  let node: ChainNode;

  beforeAll(async () => {
    chain = await start();
    node = new ChainNode({ coin, rpc: chain.rpc, walletRpc: chain.walletRpc });
  });
  afterAll(async () => {
    node?.close();
    await chain?.stop();
  });

  it('returns a block template the protocol package turns into a job', async () => {
    const template = await node.getBlockTemplate();
    expect(template.previousblockhash).toBe(await node.getBestBlockHash());
    expect(template.height).toBe((await node.getBlockCount()) + 1);
    expect(template.bits).toMatch(/^[0-9a-f]{8}$/);
    expect(typeof template.longpollid).toBe('string');
    expect(template.default_witness_commitment).toMatch(/^6a24aa21a9ed/);
    if (coin === 'LTC') expect(template.mweb).toMatch(/^[0-9a-f]+$/);
    const params = coinParams(coin, 'regtest');
    const job = jobFromTemplate(template, params, {
      payoutScript: addressToOutputScript(chain.poolAddress, params),
      poolTag: '/manjam/',
      extranonce1Size: 4,
      extranonce2Size: 4,
    });
    expect(job.coinbaseValue).toBe(BigInt(template.coinbasevalue));
  });

  it('reads headers, difficulty, mining info and address validity', async () => {
    const best = await node.getBestBlockHash();
    const header = await node.getBlockHeader(best);
    expect(header.height).toBe(await node.getBlockCount());
    expect(header.confirmations).toBe(1);
    expect(await node.getBlockHash(header.height)).toBe(best);
    expect(await node.getDifficulty()).toBeGreaterThan(0);
    expect((await node.getMiningInfo()).blocks).toBe(header.height);
    expect((await node.validateAddress(chain.poolAddress)).isvalid).toBe(true);
    expect((await node.validateAddress('not-an-address')).isvalid).toBe(false);
  });

  it('pays exact base-unit amounts with sendMany and the recipients receive exactly them', async () => {
    const first = await node.wallet.call<string>('getnewaddress', ['']);
    const second = await node.wallet.call<string>('getnewaddress', ['']);
    const amounts = new Map([
      [first, 123_456_789n],
      [second, 2_099_999_999n],
    ]);
    const tipBefore = await node.getBestBlockHash();
    const txid = await node.sendMany(amounts, 'manjam payout test');
    await chain.mine(1);
    const outputs = await outputsOf(node, txid);
    expect(outputs.get(first)).toBe(123_456_789n);
    expect(outputs.get(second)).toBe(2_099_999_999n);
    const tx = await node.getTransaction(txid);
    expect(tx.confirmations).toBe(1);
    // Core reports the fee it paid; bcoin's wallet RPC leaves it out.
    if (coin === 'LTC') expect(tx.fee !== undefined && tx.fee < 0n).toBe(true);
    const since = await node.listSinceBlock(tipBefore);
    expect(since.transactions.some((entry) => entry.txid === txid)).toBe(true);
    const listed = await node.listTransactions(5);
    expect(listed.length).toBeGreaterThan(0);
    expect(typeof listed[0]!.amount).toBe('bigint');
  });

  it('refuses a payout to a bad address with a clear node error and pays nobody', async () => {
    const before = await node.getBalance();
    await expect(node.sendMany(new Map([['not-an-address', 1_000_000n]]))).rejects.toMatchObject({
      kind: 'rpc',
      method: 'sendmany',
    });
    expect(await node.getBalance()).toBe(before);
  });

  it('submits a block built from a template and sees it become the tip', async () => {
    const block = mineBlockFromTemplate(coin, await node.getBlockTemplate(), chain.poolAddress);
    const result = await submitBlock(node, block.hex, block);
    expect(result).toMatchObject({ status: 'accepted', tipHash: block.hash });
    expect((await node.getBlockHeader(block.hash)).confirmations).toBe(1);
  });

  it('does not call a block accepted when another block took its place first', async () => {
    const block = mineBlockFromTemplate(coin, await node.getBlockTemplate(), chain.poolAddress);
    const [rival] = await chain.mine(1);
    const result = await submitBlock(node, block.hex, block, { confirmTimeoutMs: 300 });
    expect(result.status).not.toBe('accepted');
    // The node holds it on a side branch, and says so when asked for its header.
    expect(result.status).toBe('side_branch');
    expect(result.tipHash).toBe(rival);
  });

  it('reports a block the node cannot decode as rejected, with the node’s reason', async () => {
    const result = await submitBlock(node, '00ff', { height: 1, hash: '00'.repeat(32) });
    expect(result.status).toBe('rejected');
    expect(result.nodeResult).toBeTruthy();
  });

  it('follows a reorg when a block is invalidated', async () => {
    const [hash] = await chain.mine(1);
    await node.invalidateBlock(hash!);
    expect(await node.getBestBlockHash()).not.toBe(hash);
    // Core still knows the block, off the main chain; bcoin forgets it.
    if (coin === 'LTC') expect((await node.getBlockHeader(hash!)).confirmations).toBe(-1);
    await node.reconsiderBlock(hash!);
    // Core reorganizes back at once; bcoin only forgets the mark and waits for the next block.
    if (coin === 'LTC') expect(await node.getBestBlockHash()).toBe(hash);
  });

  it('says clearly when the RPC password is wrong', async () => {
    const wrong = new RpcClient({ ...chain.rpc, password: 'wrong' });
    const error = await wrong.call('getblockcount').catch((err: unknown) => err);
    wrong.close();
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ kind: 'http', code: 401, method: 'getblockcount' });
    expect((error as RpcError).message).toMatch(/getblockcount: unauthorized/);
  });

  it('names the method and the node’s message for an RPC error', async () => {
    const error = await node.rpc.call('getblockhash', [999_999]).catch((err: unknown) => err);
    expect(error).toMatchObject({ kind: 'rpc', method: 'getblockhash' });
    expect((error as RpcError).message).toMatch(/^getblockhash: .+/);
    expect(typeof (error as RpcError).code).toBe('number');
  });
});

describe('RPC transport failures', () => {
  it('reports a node that is not listening as a transport error', async () => {
    const client = new RpcClient({ url: `http://127.0.0.1:${await freePort()}/`, user: 'u', password: 'p' });
    await expect(client.call('getblockcount')).rejects.toMatchObject({
      kind: 'transport',
      method: 'getblockcount',
    });
    await expect(client.call('getblockcount')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('gives up on a node that never answers after the call timeout', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const client = new RpcClient({ url: `http://127.0.0.1:${port}/`, user: 'u', password: 'p' });
    const started = Date.now();
    await expect(client.call('getblocktemplate', [], { timeoutMs: 200 })).rejects.toMatchObject({
      kind: 'timeout',
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    client.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });
});
