// A separate accounting process for the crash test: runs one payout run against the given
// database and node, prints its result as one JSON line, and exits. With crash "after-send" it
// SIGKILLs itself right after sendmany returns; with "before-send", once the run's intent is
// recorded and before sendmany reaches the node (the fault is injected into the chain it hands
// to accounting, not switched on inside accounting).
//   env MANJAM_PAYOUT_CHILD = {"coin","databaseUrl","schema","rpc","walletRpc","crash"?}
import { pino } from 'pino';
import { ChainNode } from '../../chain/node.js';
import type { RpcEndpoint } from '../../chain/rpc.js';
import { parseConfig } from '../../config/index.js';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import { openDatabase } from '../../db/index.js';
import { PoolEvents } from '../../events.js';
import { RpcAccountingChain, startAccounting, type AccountingChain } from '../index.js';

interface ChildSpec {
  coin: BitcoinFamilyCoin;
  databaseUrl: string;
  schema: string;
  rpc: RpcEndpoint;
  walletRpc: RpcEndpoint;
  crash?: 'before-send' | 'after-send';
}

/** The node's accounting chain, dying by SIGKILL just before sendmany or the moment it answered. */
function crashing(node: ChainNode, when: 'before-send' | 'after-send'): AccountingChain {
  const chain = RpcAccountingChain.fromNode(node);
  const sendMany = chain.sendMany.bind(chain);
  chain.sendMany = async (outputs, comment) => {
    if (when === 'after-send') await sendMany(outputs, comment);
    process.kill(process.pid, 'SIGKILL');
    return new Promise<string>(() => undefined);
  };
  return chain;
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.env.MANJAM_PAYOUT_CHILD ?? '') as ChildSpec;
  const db = await openDatabase({ databaseUrl: spec.databaseUrl, schema: spec.schema });
  const node = new ChainNode({ coin: spec.coin, rpc: spec.rpc, walletRpc: spec.walletRpc });
  const service = await startAccounting({
    config: parseConfig({}),
    db,
    logger: pino({ level: 'silent' }),
    events: new PoolEvents(),
    chains: new Map([[spec.coin, spec.crash ? crashing(node, spec.crash) : node]]),
    loop: false,
  });
  const results = await service.runPayouts(spec.coin);
  process.stdout.write(
    JSON.stringify(results, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) + '\n',
  );
  await service.stop();
  node.close();
  await db.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`payout-child: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
