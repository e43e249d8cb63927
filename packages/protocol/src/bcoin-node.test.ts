import bcoin from 'bcoin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressToOutputScript } from './address.js';
import { blockHashHex, serializeBlockHex } from './block.js';
import { coinParams } from './coins.js';
import { fromRpcHex } from './hash.js';
import { buildShare, type BuiltShare } from './share.js';
import { jobFromTemplate, type BlockTemplateRpc, type JobTemplate } from './template.js';

// A real SHA-256d node (bcoin, in memory, in this process) judges the blocks this package builds
// from the node's own getblocktemplate: merkle root, witness commitment, coinbase value, PoW.

const PARAMS = coinParams('BTC', 'regtest');
const PAYOUT = 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn';
const SEGWIT_ACTIVE_HEIGHT = 432; // BIP9 on bcoin's regtest: three 144-block windows

let node: InstanceType<typeof bcoin.FullNode>;

async function call<T>(method: string, params: unknown[] = []): Promise<T> {
  const response = await node.rpc.call({ method, params, id: 1 }, {});
  if (response.error) throw new Error(`${method}: ${response.error.message}`);
  return response.result as T;
}

function jobFor(template: BlockTemplateRpc): JobTemplate {
  return jobFromTemplate(template, PARAMS, {
    payoutScript: addressToOutputScript(PAYOUT, PARAMS),
    poolTag: '/Manjam/',
    extranonce1Size: 4,
    extranonce2Size: 8,
  });
}

function solve(job: JobTemplate): BuiltShare {
  const extranonce1 = Buffer.from('0badf00d', 'hex');
  for (let nonce = 0; nonce < 10_000; nonce++) {
    const share = buildShare(job, 'sha256d', {
      extranonce1,
      extranonce2: Buffer.from('0000000000000001', 'hex'),
      ntime: job.curtime,
      nonce,
      version: job.version,
    });
    if (share.hashValue <= job.networkTarget) return share;
  }
  throw new Error('no nonce under the regtest target in 10,000 tries');
}

beforeAll(async () => {
  node = new bcoin.FullNode({
    network: 'regtest',
    memory: true,
    workers: false,
    listen: false,
    logLevel: 'none',
    // Its HTTP server would take regtest's default 48332, which a parallel test may hold.
    httpHost: '127.0.0.1',
    httpPort: 0,
  });
  await node.open();
  // Mine to a key we hold so a coinbase can be spent into a real witness transaction.
  const ring = bcoin.KeyRing.generate();
  ring.witness = true;
  const hashes = await call<string[]>('generatetoaddress', [
    SEGWIT_ACTIVE_HEIGHT,
    ring.getAddress().toString('regtest'),
  ]);
  const first = await node.chain.getBlock(fromRpcHex(hashes[0]!).toString('hex'));
  const coin = bcoin.Coin.fromTX(first!.txs[0]!, 0, 1);
  const mtx = new bcoin.MTX();
  mtx.addCoin(coin);
  mtx.addOutput(bcoin.Address.fromString(PAYOUT, 'regtest'), coin.value - 10_000);
  mtx.sign(ring);
  await call('sendrawtransaction', [mtx.toTX().toRaw().toString('hex')]);
}, 120_000);

afterAll(async () => {
  await node?.close();
});

describe('blocks built for a real bcoin regtest node', () => {
  it('is accepted as the new tip with a witness transaction and the node fees in the coinbase', async () => {
    const template = await call<BlockTemplateRpc>('getblocktemplate', [{ rules: ['segwit'] }]);
    expect(template.transactions).toHaveLength(1);
    expect(template.default_witness_commitment).toMatch(/^6a24aa21a9ed/);
    const job = jobFor(template);
    expect(job.fees).toBe(10_000n);
    const share = solve(job);
    expect(await call('submitblock', [serializeBlockHex(job, share)])).toBeNull();
    expect(await call<string>('getbestblockhash')).toBe(blockHashHex(share.header));
    const block = await node.chain.getBlock(fromRpcHex(blockHashHex(share.header)).toString('hex'));
    expect(block!.txs).toHaveLength(2);
    expect(block!.txs[0]!.outputs[0]!.value).toBe(template.coinbasevalue);
  }, 60_000);

  it('is accepted with only a coinbase on top of it', async () => {
    const template = await call<BlockTemplateRpc>('getblocktemplate', [{ rules: ['segwit'] }]);
    expect(template.transactions).toHaveLength(0);
    const job = jobFor(template);
    const share = solve(job);
    await call('submitblock', [serializeBlockHex(job, share)]);
    expect(await call<string>('getbestblockhash')).toBe(blockHashHex(share.header));
    expect(await call<number>('getblockcount')).toBe(SEGWIT_ACTIVE_HEIGHT + 2);
  }, 60_000);

  it('is refused when the coinbase claims one satoshi more than the template allows', async () => {
    const template = await call<BlockTemplateRpc>('getblocktemplate', [{ rules: ['segwit'] }]);
    const job = jobFor({ ...template, coinbasevalue: template.coinbasevalue + 1 });
    const share = solve(job);
    const before = await call<string>('getbestblockhash');
    expect(await call<string | null>('submitblock', [serializeBlockHex(job, share)])).toMatch(/cb-amount/);
    expect(await call<string>('getbestblockhash')).toBe(before);
  }, 60_000);
});
