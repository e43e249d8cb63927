// A separate accounting process for the crash test: runs one payout run against the given
// database and node, prints its result as one JSON line, and exits. With crash "after-send" it
// SIGKILLs itself right after sendmany returns; with "before-send", once the run's intent is
// recorded and before sendmany reaches the node (the fault is injected into the chain it hands
// to accounting, not switched on inside accounting). The chain is the coin's family's
// (coins/<family>/payout-chain.ts), built from the spec's keys of that family.
//   env MANJAM_PAYOUT_CHILD = {"coin","databaseUrl","schema","crash"?, ...the family's keys}
import { pino } from 'pino';
import { familyOf } from '@manjam/protocol';
import { parseConfig } from '../../../src/config/index.js';
import { openDatabase } from '../../../src/db/index.js';
import { PoolEvents } from '../../../src/events.js';
import { startAccounting } from '../../../src/accounting/index.js';
import { familySupportFile } from '../families.js';
import type { PayoutChainFamily, PayoutChildSpec } from './payout-crash.js';

async function main(): Promise<void> {
  const spec = JSON.parse(process.env.MANJAM_PAYOUT_CHILD ?? '') as PayoutChildSpec;
  const family = await familySupportFile<PayoutChainFamily>(familyOf(spec.coin), 'payout-chain.ts');
  if (!family) throw new Error(`payout child: the ${familyOf(spec.coin)} family has no payout-chain.ts`);
  const db = await openDatabase({ databaseUrl: spec.databaseUrl, schema: spec.schema });
  const { chain, close } = family.payoutChain(spec);
  const service = await startAccounting({
    config: parseConfig({}),
    db,
    logger: pino({ level: 'silent' }),
    events: new PoolEvents(),
    chains: new Map([[spec.coin, chain]]),
    loop: false,
  });
  const results = await service.runPayouts(spec.coin);
  process.stdout.write(
    JSON.stringify(results, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) + '\n',
  );
  await service.stop();
  close();
  await db.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`payout-child: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
