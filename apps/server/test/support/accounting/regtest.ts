// Regtest helpers for accounting tests: a block the pool really found on the node, recorded the
// way the Stratum side records it, and wallet reads in base units.
import { createHash } from 'node:crypto';
import { blockSubsidy, coinParams } from '@manjam/protocol';
import { bech32 } from 'bech32';
import type { ChainNode } from '../../../src/coins/bitcoin/node/node.js';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import type { Queryable } from '../../../src/db/index.js';
import type { DevChain } from '../../../src/coins/bitcoin/devchain/index.js';
import { unitsFromRpc } from '../../../src/coins/bitcoin/amounts.js';
import { insertBlock, type MinerFixture } from './fixtures.js';

/** The node's network difficulty in the coin's Stratum unit (scrypt: x 65536). */
export async function stratumNetworkDifficulty(node: ChainNode, coin: BitcoinFamilyCoin): Promise<number> {
  const difficulty = await node.getDifficulty();
  return coin === 'LTC' ? difficulty * 65_536 : difficulty;
}

export interface FoundBlock {
  id: number;
  height: number;
  hash: string;
  reward: bigint;
  subsidy: bigint;
  fees: bigint;
}

/** Mines one block to the pool wallet and records it as found by `finder` under `scheme`. */
export async function findBlock(
  db: Queryable,
  coin: BitcoinFamilyCoin,
  dev: DevChain,
  node: ChainNode,
  opts: {
    scheme: 'pps-plus' | 'pplns' | 'solo';
    finder: MinerFixture;
    networkDifficulty: number;
    at: Date;
    to?: string;
  },
): Promise<FoundBlock> {
  const [hash] = await dev.mine(1, opts.to);
  if (!hash) throw new Error('the node mined no block');
  const block = await node.rpc.call<{ height: number; tx: string[] }>('getblock', [hash]);
  const coinbase = block.tx[0];
  if (!coinbase) throw new Error('block without coinbase');
  const reward = opts.to ? await coinbaseValue(node, coinbase) : await walletCoinbaseValue(node, coinbase);
  const subsidy = blockSubsidy(coinParams(coin, 'regtest'), block.height);
  const fees = reward - subsidy;
  const id = await insertBlock(db, coin, {
    height: block.height,
    hash,
    scheme: opts.scheme,
    reward,
    subsidy,
    fees,
    networkDifficulty: opts.networkDifficulty,
    finder: opts.finder,
    at: opts.at,
  });
  return { id, height: block.height, hash, reward, subsidy, fees };
}

/** A coinbase paying the pool wallet, valued by the wallet. */
async function walletCoinbaseValue(node: ChainNode, coinbase: string): Promise<bigint> {
  // Core values an immature coinbase at 0 in `amount`; its details carry the outputs.
  const tx = await node.wallet.call<{ details: { category: string; amount: number; vout: number }[] }>(
    'gettransaction',
    [coinbase],
  );
  const outputs = new Map(
    tx.details
      .filter((d) => ['immature', 'generate', 'receive'].includes(d.category))
      .map((d) => [d.vout, d.amount]),
  );
  return [...outputs.values()].reduce((sum, amount) => sum + unitsFromRpc(amount), 0n);
}

/** A coinbase paying any address, valued from the UTXO set (its outputs: reward + commitment). */
async function coinbaseValue(node: ChainNode, coinbase: string): Promise<bigint> {
  return [...(await paidOnChain(node, coinbase, 4)).values()].reduce((sum, v) => sum + v, 0n);
}

/** What the node's wallet has received on an address (1 confirmation), in base units. */
export async function receivedBy(node: ChainNode, address: string): Promise<bigint> {
  return unitsFromRpc(await node.wallet.call<number>('getreceivedbyaddress', [address, 1]));
}

export async function newAddress(node: ChainNode): Promise<string> {
  return node.wallet.call<string>('getnewaddress', ['default']);
}

/** An address on the coin's regtest chain whose key nobody holds: outside the pool's wallet. */
export function outsideAddress(coin: BitcoinFamilyCoin, label: string): string {
  const program = createHash('sha256').update(`outside:${coin}:${label}`).digest().subarray(0, 20);
  // The dev chains' own prefixes: bcoin (BTC) writes regtest addresses with 'rb', Litecoin Core 'rltc'.
  const hrp = coin === 'BTC' ? 'rb' : 'rltc';
  return bech32.encode(hrp, [0, ...bech32.toWords(program)]);
}

/**
 * What a transaction's still-unspent outputs pay each address, read from the node's UTXO set
 * (not from the wallet, which knows nothing of outside addresses; their outputs are never spent).
 */
export async function paidOnChain(
  node: ChainNode,
  txid: string,
  outputs: number,
): Promise<Map<string, bigint>> {
  const paid = new Map<string, bigint>();
  for (let n = 0; n < outputs; n++) {
    const out = await node.rpc.call<{
      value: number;
      scriptPubKey: { address?: string; addresses?: string[] };
    } | null>('gettxout', [txid, n, true]);
    const address = out?.scriptPubKey.address ?? out?.scriptPubKey.addresses?.[0];
    if (!out || !address) continue;
    paid.set(address, (paid.get(address) ?? 0n) + unitsFromRpc(out.value));
  }
  return paid;
}
