import type { BlockTemplateRpc, CoinParams, TipHeader } from '@manjam/protocol';
import type { TemplateInfo } from './node/watcher-types.js';
import type { BitcoinFamilyCoin } from '@manjam/protocol';

/** Why a template was emitted and whether it is a new tip: the template watcher's own type. */
export type { TemplateInfo } from './node/watcher-types.js';

import type { BlockSubmitResult, SourceAvailability } from '../../stratum/source.js';

export type { BlockSubmitResult, SourceAvailability } from '../../stratum/source.js';

/**
 * What the Stratum side needs from a coin's chain, independent of how templates are learnt.
 * `chain-source.ts` adapts the chain module's node + template watcher to it; tests may pass
 * their own.
 */
export interface TemplateSource {
  readonly coin: BitcoinFamilyCoin;
  readonly params: CoinParams;
  /** The pool wallet address the coinbase pays. */
  readonly poolAddress: string;
  current(): BlockTemplateRpc | undefined;
  onTemplate(listener: (template: BlockTemplateRpc, info: TemplateInfo) => void): () => void;
  /** A new tip heard of before its template (sources that cannot tell send templates only). */
  onTip?(listener: (tip: TipHeader, info: TemplateInfo) => void): () => void;
  submitBlock(blockHex: string, expected: { height: number; hash: string }): Promise<BlockSubmitResult>;
  /** Sources without node health (test fakes) are always up. */
  availability?(): SourceAvailability;
  /**
   * True once no node has answered for the silence limit, before the change is announced (the
   * announcement waits for the health check's tick): shares judged then are not credited.
   */
  silentPastLimit?(): boolean;
  /** Hears each change: down once no node answered past the silence limit, up at the next answer. */
  onAvailability?(listener: (availability: SourceAvailability) => void): () => void;
}
