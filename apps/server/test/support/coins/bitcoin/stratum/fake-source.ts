// A TemplateSource for UNIT tests: templates are pushed by the test, submitted blocks recorded.
import { randomBytes } from 'node:crypto';
import { coinParams, type BlockTemplateRpc } from '@manjam/protocol';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import type {
  BlockSubmitResult,
  TemplateInfo,
  TemplateSource,
} from '../../../../../src/coins/bitcoin/source.js';

/** A regtest address for tests (P2WPKH of twenty 0x11 bytes). */
export const BTC_REGTEST_ADDRESS = 'rb1qzyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg328fddy';
export const BTC_REGTEST_ADDRESS_2 = 'rb1qyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3z96vt9n';

/** Mainnet-like difficulty 1: no test share ever meets it. */
export const HARD_BITS = '1d00ffff';
/** Regtest's target: about every other hash is a block. */
export const EASY_BITS = '207fffff';

export function syntheticTemplate(overrides: Partial<BlockTemplateRpc> = {}): BlockTemplateRpc {
  return {
    version: 0x20000000,
    previousblockhash: '00000000000000000001a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7',
    transactions: [],
    coinbasevalue: 5_000_000_000,
    bits: HARD_BITS,
    height: 101,
    curtime: 1_700_000_000,
    mintime: 1_699_999_000,
    ...overrides,
  };
}

/** A mainnet-like template with many transactions (a full merkle branch) that no share meets. */
export function frozenTemplate(transactions = 2_000): BlockTemplateRpc {
  const txs = Array.from({ length: transactions }, (_, i) => {
    const id = randomBytes(32).toString('hex');
    return { data: `02000000${i.toString(16).padStart(8, '0')}`, txid: id, hash: id, fee: 1_000 };
  });
  return {
    version: 0x20000000,
    previousblockhash: randomBytes(32).toString('hex'),
    transactions: txs,
    coinbasevalue: 5_000_000_000 + transactions * 1_000, // regtest subsidy below height 150
    bits: '1703255b',
    height: 100,
    curtime: Math.floor(Date.now() / 1000),
    mintime: Math.floor(Date.now() / 1000) - 600,
  };
}

export class FakeTemplateSource implements TemplateSource {
  readonly params;
  readonly submitted: { blockHex: string; expected: { height: number; hash: string } }[] = [];
  submitAnswer: BlockSubmitResult = { status: 'accepted', nodeResult: null };
  private template: BlockTemplateRpc | undefined;
  private readonly listeners = new Set<(t: BlockTemplateRpc, info: TemplateInfo) => void>();

  constructor(
    readonly coin: BitcoinFamilyCoin = 'BTC',
    readonly poolAddress: string = BTC_REGTEST_ADDRESS,
    initial: BlockTemplateRpc | undefined = syntheticTemplate(),
  ) {
    this.params = coinParams(coin, 'regtest');
    this.template = initial;
  }

  current(): BlockTemplateRpc | undefined {
    return this.template;
  }

  onTemplate(listener: (t: BlockTemplateRpc, info: TemplateInfo) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  push(template: BlockTemplateRpc, newTip: boolean): void {
    this.template = template;
    for (const listener of this.listeners)
      listener(template, { newTip, reason: newTip ? 'blocknotify' : 'refresh' });
  }

  submitBlock(blockHex: string, expected: { height: number; hash: string }): Promise<BlockSubmitResult> {
    this.submitted.push({ blockHex, expected });
    return Promise.resolve(this.submitAnswer);
  }
}
