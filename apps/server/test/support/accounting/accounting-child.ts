// An accounting process for the leader test: opens the given PostgreSQL schema, runs accounting
// under the accounting lock (runAsLeader, as `manjam start --role accounting` does) on an
// in-memory chain, logs to stdout (JSON lines), and prints {"credited":N} whenever the number of
// shares it has credited changes. Runs until killed.
//   env MANJAM_ACCOUNTING_CHILD = {"coin","databaseUrl","schema"}
import { pino } from 'pino';
import { parseConfig, type CoinId } from '../../../src/config/index.js';
import { openDatabase } from '../../../src/db/index.js';
import { PoolEvents } from '../../../src/events.js';
import { startAccounting } from '../../../src/accounting/index.js';
import { runAsLeader } from '../../../src/accounting/leader.js';
import { MemoryChain } from './memory-chain.js';

interface ChildSpec {
  coin: CoinId;
  databaseUrl: string;
  schema: string;
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.env.MANJAM_ACCOUNTING_CHILD ?? '') as ChildSpec;
  const db = await openDatabase({ databaseUrl: spec.databaseUrl, schema: spec.schema });
  const logger = pino({ level: 'info' });
  const config = parseConfig({});
  const leader = runAsLeader({ db, logger, name: 'accounting', retryMs: 500 }, () =>
    startAccounting({
      config,
      db,
      logger,
      events: new PoolEvents(),
      chains: new Map([[spec.coin, new MemoryChain(100)]]),
      cycleMs: 200,
    }),
  );
  await leader.ready;
  let credited = 0;
  setInterval(() => {
    const now = leader.current()?.metrics().shares_credited_total ?? credited;
    if (now !== credited) process.stdout.write(JSON.stringify({ credited: now }) + '\n');
    credited = now;
  }, 100);
}

main().catch((error: unknown) => {
  process.stderr.write(`accounting-child: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
