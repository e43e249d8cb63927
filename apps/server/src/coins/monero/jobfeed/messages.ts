// The Monero family's codec on the job feed: its work message carries what the XMR
// port builds jobs from (MoneroTemplate, ../stratum/template-source.ts): the blocktemplate blob
// with its reserved offset, the height and previous block, the RandomX seed hashes, the network
// difficulty and the rewards. Amounts and difficulty are decimal strings (atomic units can pass
// 2^53). A found block goes back as the feed's submit request: the full block blob in hex, which
// the core hands to monerod's submit_block.
import { parseMoneroBlock } from '@manjam/protocol/monero';
import { z } from 'zod';
import { coinIdentity, decode, hex } from '../../../jobfeed/messages.js';
import type { MoneroTemplate, MoneroTip } from '../stratum/template-source.js';

const amount = z.string().regex(/^\d+$/);

const moneroWorkSchema = z.object({
  blob: hex,
  reservedOffset: z.number().int().nonnegative(),
  height: z.number().int().nonnegative(),
  prevHash: hex,
  seedHash: hex,
  nextSeedHash: hex.optional(),
  networkDifficulty: amount,
  reward: amount,
  /** The PPS value of a share at this height (the REWARD RULE of template-source.ts). */
  ppsReward: amount,
});
export type MoneroWork = z.infer<typeof moneroWorkSchema>;

export const moneroWorkMessageSchema = z.object({ ...coinIdentity, template: moneroWorkSchema });
export type MoneroWorkMessage = z.infer<typeof moneroWorkMessageSchema>;

export const decodeMoneroWork = (data: Uint8Array): MoneroWorkMessage | undefined =>
  decode(moneroWorkMessageSchema, data);

const hexOf = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const bytes = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'hex'));

/** The core's side: a template as the feed carries it. */
export function encodeMoneroWork(template: MoneroTemplate): { template: MoneroWork } {
  return {
    template: {
      blob: hexOf(template.blob),
      reservedOffset: template.reservedOffset,
      height: template.height,
      prevHash: template.prevHash,
      seedHash: template.seedHashHex,
      ...(template.nextSeedHash ? { nextSeedHash: hexOf(template.nextSeedHash) } : {}),
      networkDifficulty: template.networkDifficulty.toString(),
      reward: template.reward.toString(),
      ppsReward: template.tip.ppsReward.toString(),
    },
  };
}

/**
 * The region's side: the work as a template of the XMR port. `previous` is the region's last
 * template: the same previous block shares its tip (its PPS reward, its staleness); another one
 * starts a new tip and makes the old one stale.
 */
export function moneroTemplateOf(
  work: MoneroWork,
  seq: number,
  previous: MoneroTemplate | undefined,
): MoneroTemplate {
  const blob = bytes(work.blob);
  const sameTip = previous !== undefined && previous.prevHash === work.prevHash && !previous.tip.stale;
  const tip: MoneroTip = sameTip ? previous.tip : { ppsReward: BigInt(work.ppsReward), stale: false };
  return {
    seq,
    blob,
    block: parseMoneroBlock(blob),
    reservedOffset: work.reservedOffset,
    height: work.height,
    prevHash: work.prevHash,
    seedHash: bytes(work.seedHash),
    seedHashHex: work.seedHash,
    nextSeedHash: work.nextSeedHash === undefined ? undefined : bytes(work.nextSeedHash),
    networkDifficulty: BigInt(work.networkDifficulty),
    reward: BigInt(work.reward),
    newTip: !sameTip,
    tip,
  };
}
