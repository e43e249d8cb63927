// A TemplateSource that hands the pool ONE synthetic mainnet template and never changes it: the
// Stratum benchmark's frozen template. ~2,000 well-formed transactions (protocol test fixtures,
// so an 11-step merkle branch), mainnet bits, mainnet coin parameters and a mainnet pool
// address, so every share is fully validated and none of them is a block.
import { coinParams, isValidAddress, type BlockTemplateRpc, type CoinParams } from '@manjam/protocol';
import { fixtureTemplate } from '../../packages/protocol/test/test-fixtures.js';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import type {
  BlockSubmitResult,
  TemplateInfo,
  TemplateSource,
} from '../../apps/server/src/coins/bitcoin/source.js';

/** Mainnet pool addresses (P2WPKH) the frozen coinbase pays. */
export const MAINNET_POOL_ADDRESS: Record<BitcoinFamilyCoin, string> = {
  BTC: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  LTC: 'ltc1qj08ys4ct2hzzc2hcz6h2hgrvlmsjynawmt3sjh',
};

/** Mainnet-scale compact targets: BTC 0x17034219 (difficulty ~8.6e13), LTC 0x1a008f29 (getdifficulty ~3e7). */
export const MAINNET_BITS: Record<BitcoinFamilyCoin, string> = { BTC: '17034219', LTC: '1a008f29' };

export const FROZEN_TRANSACTIONS = 2_000;

export function frozenTemplate(coin: BitcoinFamilyCoin): BlockTemplateRpc {
  const { template } = fixtureTemplate({
    txCount: FROZEN_TRANSACTIONS,
    height: coin === 'BTC' ? 880_000 : 2_800_000,
    subsidy: coin === 'BTC' ? 312_500_000n : 625_000_000n,
    segwit: true,
    bits: MAINNET_BITS[coin],
  });
  const now = Math.floor(Date.now() / 1000);
  return { ...template, curtime: now, mintime: now - 3_600 };
}

export class FrozenTemplateSource implements TemplateSource {
  readonly params: CoinParams;
  readonly poolAddress: string;
  readonly submittedBlocks: string[] = [];
  private readonly template: BlockTemplateRpc;

  constructor(readonly coin: BitcoinFamilyCoin) {
    this.params = coinParams(coin, 'mainnet');
    this.poolAddress = MAINNET_POOL_ADDRESS[coin];
    if (!isValidAddress(this.poolAddress, this.params))
      throw new Error(`${this.poolAddress} is not a ${coin} mainnet address`);
    this.template = frozenTemplate(coin);
  }

  current(): BlockTemplateRpc {
    return this.template;
  }

  /** The template never changes: no listener is ever called. */
  onTemplate(_listener: (template: BlockTemplateRpc, info: TemplateInfo) => void): () => void {
    return () => undefined;
  }

  /** Should never happen at mainnet difficulty; recorded so the benchmark can say so. */
  submitBlock(blockHex: string): Promise<BlockSubmitResult> {
    this.submittedBlocks.push(blockHex);
    return Promise.resolve({ status: 'rejected', nodeResult: 'benchmark: frozen template' });
  }
}
