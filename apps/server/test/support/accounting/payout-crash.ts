// The payout crash test's child (payout-child.ts) and each family's part of it
// (coins/<family>/payout-chain.ts): what the test asks for and the faults it injects.
import type { Coin } from '@manjam/protocol';
import type { AccountingChain } from '../../../src/accounting/index.js';

export type Crash = 'before-send' | 'after-send';

/** What the test hands the child (env MANJAM_PAYOUT_CHILD); the coin's family reads its own keys. */
export interface PayoutChildSpec {
  coin: Coin;
  databaseUrl: string;
  schema: string;
  crash?: Crash;
}

/** A family's accounting chain for the child, and how to close its clients. */
export interface PayoutChildChain {
  chain: AccountingChain;
  close: () => void;
}

/** What a family's `payout-chain.ts` exports. */
export interface PayoutChainFamily {
  payoutChain(spec: PayoutChildSpec): PayoutChildChain;
}

/** SIGKILLs this process; never resolves. */
export function die(): Promise<never> {
  process.kill(process.pid, 'SIGKILL');
  return new Promise<never>(() => undefined);
}

/** The accounting chain, dying by SIGKILL just before sendmany or the moment it answered. */
export function crashing(chain: AccountingChain, when: Crash | undefined): AccountingChain {
  if (!when) return chain;
  const sendMany = chain.sendMany.bind(chain);
  chain.sendMany = async (outputs, comment) => {
    if (when === 'after-send') await sendMany(outputs, comment);
    return die();
  };
  return chain;
}
