// A share whose PoW value is at or under the network target: the template's block with the nonce
// set goes to kaspad's SubmitBlock (KaspaTemplateSource.submit) and is recorded through the share
// sink with kaspad's verdict. Kaspa has no height: the block's DAA score stands in for it.
// REWARD: a Kaspa block's own reward is paid later, in the coinbase of the chain blocks that merge
// it (and only if it is blue); what is known when it is found is the value its template's coinbase
// pays the pool address, recorded here as the reward. Tracking the merged reward is accounting's.
import { FOUND_BLOCK_STATUS } from '../../../stratum/source.js';
import type { KaspaTemplate } from '../template-source.js';
import { KAS, type KaspaMinerRef, type KaspaStratumOptions } from './types.js';

export interface FoundKaspaShare {
  miner: KaspaMinerRef;
  template: KaspaTemplate;
  nonce: bigint;
  shareDifficulty: number;
}

/** Submits and records the block; resolves when it is recorded (never rejects: failures are logged). */
export function submitFoundBlock(
  options: Pick<KaspaStratumOptions, 'source' | 'sink' | 'logger' | 'scheme'>,
  found: FoundKaspaShare,
): Promise<void> {
  const { source, sink, logger, scheme } = options;
  const { miner, template } = found;
  const foundMs = Date.now();
  const daaScore = Number(template.daaScore);
  return (async () => {
    const result = await source.submit(template, found.nonce);
    logger.info(
      {
        coin: KAS,
        daaScore,
        hash: result.hash,
        status: result.status,
        node: result.nodeResult,
        login: miner.workerKey,
      },
      'KAS block found and submitted',
    );
    await sink.addBlock({
      miner,
      height: daaScore,
      hash: result.hash,
      scheme,
      // What the block earns once merged as blue: its subsidy (its fees are not known until then).
      reward: template.subsidy,
      subsidy: template.subsidy,
      fees: 0n,
      networkDifficulty: template.networkDifficulty,
      shareDifficulty: found.shareDifficulty,
      status: FOUND_BLOCK_STATUS[result.status],
      submitResult: result.nodeResult,
      atMs: foundMs,
    });
  })().catch((error: unknown) => logger.error({ err: error }, 'recording a found KAS block failed'));
}
