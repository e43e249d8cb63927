// Test helper: turns a node's template into a real block the way the pool does (protocol's
// coinbase, merkle branch, header, PoW) and grinds nonces until it meets the regtest target.
import {
  addressToOutputScript,
  algorithmOf,
  blockHashHex,
  buildShare,
  coinParams,
  jobFromTemplate,
  serializeBlock,
  type BlockTemplateRpc,
  type BitcoinFamilyCoin,
} from '@manjam/protocol';

export interface MinedBlock {
  hex: string;
  hash: string;
  height: number;
}

export function mineBlockFromTemplate(
  coin: BitcoinFamilyCoin,
  template: BlockTemplateRpc,
  payoutAddress: string,
): MinedBlock {
  const params = coinParams(coin, 'regtest');
  const algorithm = algorithmOf(coin);
  const job = jobFromTemplate(template, params, {
    payoutScript: addressToOutputScript(payoutAddress, params),
    poolTag: '/manjam-test/',
    extranonce1Size: 4,
    extranonce2Size: 4,
  });
  const input = {
    extranonce1: Buffer.from('00000001', 'hex'),
    extranonce2: Buffer.from('00000000', 'hex'),
    ntime: Math.max(job.curtime, job.mintime),
    nonce: 0,
    version: job.version,
  };
  // Regtest's target accepts about every other hash; 10,000 tries never all fail in practice.
  for (let nonce = 0; nonce < 10_000; nonce++) {
    const share = buildShare(job, algorithm, { ...input, nonce });
    if (share.hashValue <= job.networkTarget) {
      return {
        hex: serializeBlock(job, share).toString('hex'),
        hash: blockHashHex(share.header),
        height: job.height,
      };
    }
  }
  throw new Error('no nonce met the regtest target');
}
