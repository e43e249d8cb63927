import { blockHashHex, serializeBlock, type BuiltShare } from '@manjam/protocol';
import type { BlockSubmitResult } from '../source.js';
import type { MinerRef } from '../../../shares/types.js';
import { FOUND_BLOCK_STATUS } from '../../../stratum/source.js';
import type { Job } from './jobs.js';
import type { StratumSession } from './context.js';

/**
 * A share under the network target: serialize the block, submit it through the coin's template
 * source, and record it whatever the node answered (accepted -> pending maturity, rejected, or
 * submitted when the outcome is unknown). The record goes through the share writer, so a block
 * found while the database is down is kept like a share. 'block.found' is emitted once stored.
 */
export function submitFoundBlock(
  session: StratumSession,
  miner: MinerRef,
  job: Job,
  built: BuiltShare,
  shareDifficulty: number,
): void {
  const port = session.port;
  const pool = port.pool;
  const hash = blockHashHex(built.header);
  const tpl = job.template;
  const foundMs = Date.now();
  // Work on this parent is stale from now: a second block there would only compete with this one.
  port.jobs.ownBlocks.claim(tpl.prevHashRpc, hash);
  pool.logger.info(
    { coin: port.coin, height: tpl.height, hash, login: miner.workerKey },
    'block found; submitting',
  );
  const work = (async () => {
    let result: BlockSubmitResult;
    try {
      const blockHex = serializeBlock(tpl, built).toString('hex');
      result = await port.jobs.source.submitBlock(blockHex, { height: tpl.height, hash });
    } catch (error) {
      result = { status: 'unknown', nodeResult: `submit failed: ${(error as Error).message}` };
    }
    pool.logger.info(
      { coin: port.coin, height: tpl.height, hash, status: result.status, node: result.nodeResult },
      'block submitted',
    );
    // Not on the node's main chain (refused, lost, or beaten by another block): the parent is open again.
    if (result.status !== 'accepted') port.jobs.ownBlocks.withdraw(tpl.prevHashRpc, hash);
    await pool.writer.addBlock({
      miner,
      height: tpl.height,
      hash,
      scheme: port.scheme,
      reward: tpl.coinbaseValue,
      subsidy: tpl.subsidy,
      fees: tpl.fees,
      networkDifficulty: job.networkDifficulty,
      shareDifficulty,
      status: FOUND_BLOCK_STATUS[result.status],
      submitResult: result.nodeResult,
      atMs: foundMs,
    });
  })();
  pool.pendingBlocks.add(work);
  void work.finally(() => pool.pendingBlocks.delete(work));
}
