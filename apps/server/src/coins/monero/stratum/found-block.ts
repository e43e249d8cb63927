// A share whose hash meets the network difficulty: the block blob (the job's extra nonce and the
// miner's nonce written in) goes to monerod's submit_block, is confirmed against the node's tip
// (MoneroTemplateSource.submitBlock) and recorded through the share sink with its status.
import { moneroBlockId, withMoneroNonce } from '@manjam/protocol/monero';
import type { OwnBlocks } from '../../../stratum/block-first.js';
import { FOUND_BLOCK_STATUS, type BlockSubmitResult } from '../../../stratum/source.js';
import { hex, type MoneroJob } from './session.js';
import type { MoneroTip } from './template-source.js';
import { XMR, type MoneroMinerRef, type MoneroStratumOptions } from './types.js';

export interface FoundMoneroShare {
  miner: MoneroMinerRef;
  job: MoneroJob;
  nonce: number;
  /** The job's hashing blob with the nonce written in. */
  hashingBlob: Uint8Array;
  shareDifficulty: number;
}

/**
 * Submits and records the block; resolves when it is recorded (never rejects: failures are logged).
 * Its parent is claimed in `ownBlocks` at once and withdrawn unless the node puts it on its main chain.
 */
export function submitFoundBlock(
  options: Pick<MoneroStratumOptions, 'source' | 'sink' | 'logger' | 'scheme'>,
  found: FoundMoneroShare,
  ownBlocks: OwnBlocks<MoneroTip>,
): Promise<void> {
  const { source, sink, logger, scheme } = options;
  const { miner, job } = found;
  const template = job.template;
  const hash = hex(moneroBlockId(found.hashingBlob));
  const blockHex = hex(withMoneroNonce(job.blockBlob, job.nonceOffset, found.nonce));
  const foundMs = Date.now();
  ownBlocks.claim(template.tip, hash);
  logger.info(
    { coin: XMR, height: template.height, hash, login: miner.workerKey },
    'block found; submitting',
  );
  // REWARD RULE (template-source.ts): PPS credited the height at tip.ppsReward; what this block's
  // template holds beyond it (fees of transactions that came later) is the block's fee part.
  const fees = template.reward > template.tip.ppsReward ? template.reward - template.tip.ppsReward : 0n;
  return (async () => {
    let result: BlockSubmitResult;
    try {
      result = await source.submitBlock(blockHex, { height: template.height, hash });
    } catch (error) {
      result = { status: 'unknown', nodeResult: `submit failed: ${(error as Error).message}` };
    }
    logger.info(
      { coin: XMR, height: template.height, hash, status: result.status, node: result.nodeResult },
      'block submitted',
    );
    if (result.status !== 'accepted') ownBlocks.withdraw(template.tip, hash);
    await sink.addBlock({
      miner,
      height: template.height,
      hash,
      scheme,
      reward: template.reward,
      subsidy: template.reward - fees,
      fees,
      networkDifficulty: Number(template.networkDifficulty),
      shareDifficulty: found.shareDifficulty,
      status: FOUND_BLOCK_STATUS[result.status],
      submitResult: result.nodeResult,
      atMs: foundMs,
    });
  })().catch((error: unknown) => logger.error({ err: error, hash }, 'recording a found XMR block failed'));
}
