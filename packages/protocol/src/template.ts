/** getblocktemplate result -> a Stratum job (coinbase halves, merkle branch, header fields). */
import { blockSubsidy, type CoinParams } from './coins.js';
import { buildCoinbaseParts, type TxOutput } from './coinbase.js';
import { fromRpcHex } from './hash.js';
import { merkleBranch } from './merkle.js';
import { bitsToTarget } from './target.js';

export interface BlockTemplateRpc {
  version: number;
  previousblockhash: string;
  transactions: { data: string; txid?: string; hash: string; fee?: number; weight?: number }[];
  coinbasevalue: number;
  bits: string;
  height: number;
  curtime: number;
  mintime?: number;
  target?: string;
  default_witness_commitment?: string;
  mweb?: string;
  rules?: string[];
}

export interface JobTemplate {
  height: number;
  prevHashRpc: string;
  prevHashStratum: string;
  version: number;
  bits: string;
  curtime: number;
  mintime: number;
  networkTarget: bigint;
  coinbaseValue: bigint;
  fees: bigint;
  subsidy: bigint;
  coinb1: Buffer;
  coinb2: Buffer;
  extranonce1Size: number;
  extranonce2Size: number;
  /** Internal byte order. */
  merkleBranch: Buffer[];
  /** Raw transaction hex for the block (after the coinbase). */
  transactions: string[];
  segwit: boolean;
  mweb: string | undefined;
}

export interface CoinbaseOptions {
  payoutScript: Buffer;
  poolTag: string;
  extranonce1Size: number;
  extranonce2Size: number;
}

export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const WITNESS_COMMITMENT_PREFIX = '6a24aa21a9ed';

function check(ok: boolean, message: string): asserts ok {
  if (!ok) throw new TemplateError(`bad block template: ${message}`);
}

function isUint32(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 0xffffffff;
}

function validateTemplate(tpl: BlockTemplateRpc, params: CoinParams): void {
  check(isUint32(tpl.version), `version ${String(tpl.version)}`);
  check(
    typeof tpl.previousblockhash === 'string' && /^[0-9a-fA-F]{64}$/.test(tpl.previousblockhash),
    'previousblockhash',
  );
  check(typeof tpl.bits === 'string' && /^[0-9a-fA-F]{8}$/.test(tpl.bits), `bits "${String(tpl.bits)}"`);
  check(Number.isSafeInteger(tpl.height) && tpl.height > 0, `height ${String(tpl.height)}`);
  check(isUint32(tpl.curtime), `curtime ${String(tpl.curtime)}`);
  check(tpl.mintime === undefined || isUint32(tpl.mintime), `mintime ${String(tpl.mintime)}`);
  check(
    Number.isSafeInteger(tpl.coinbasevalue) && tpl.coinbasevalue >= 0,
    `coinbasevalue ${String(tpl.coinbasevalue)}`,
  );
  check(Array.isArray(tpl.transactions), 'transactions is not a list');
  tpl.transactions.forEach((tx, i) => {
    check(typeof tx.data === 'string' && tx.data.length > 0 && HEX.test(tx.data), `transaction #${i} data`);
    const id = tx.txid ?? tx.hash;
    check(typeof id === 'string' && /^[0-9a-fA-F]{64}$/.test(id), `transaction #${i} txid`);
  });
  const commitment = tpl.default_witness_commitment;
  if (commitment !== undefined) {
    check(
      HEX.test(commitment) &&
        commitment.toLowerCase().startsWith(WITNESS_COMMITMENT_PREFIX) &&
        commitment.length >= 76,
      `default_witness_commitment "${commitment}"`,
    );
  }
  if (tpl.mweb !== undefined) {
    check(params.mweb, `an MWEB block came from a ${params.coin} node (check the configured coin)`);
    check(typeof tpl.mweb === 'string' && tpl.mweb.length > 0 && HEX.test(tpl.mweb), 'mweb is not hex');
  }
}

/** RPC prevhash hex -> Stratum notify prevhash (the eight 4-byte words in reverse order). */
export function prevHashToStratum(prevHashRpc: string): string {
  const words = prevHashRpc.toLowerCase().match(/.{8}/g);
  if (!words || words.length !== 8)
    throw new RangeError(`prevhash must be 64 hex digits, got "${prevHashRpc}"`);
  return words.reverse().join('');
}

export function jobFromTemplate(
  tpl: BlockTemplateRpc,
  params: CoinParams,
  opts: CoinbaseOptions,
): JobTemplate {
  validateTemplate(tpl, params);
  check(opts.payoutScript.length > 0, 'empty payout script');
  const coinbaseValue = BigInt(tpl.coinbasevalue);
  const subsidy = blockSubsidy(params, tpl.height);
  check(
    coinbaseValue >= subsidy,
    `coinbasevalue ${coinbaseValue} is below the ${params.coin} ${params.network} subsidy ${subsidy} at height ${tpl.height} (wrong network?)`,
  );
  const outputs: TxOutput[] = [{ value: coinbaseValue, script: opts.payoutScript }];
  const commitment = tpl.default_witness_commitment;
  if (commitment !== undefined) outputs.push({ value: 0n, script: Buffer.from(commitment, 'hex') });
  const { coinb1, coinb2 } = buildCoinbaseParts({
    height: tpl.height,
    poolTag: opts.poolTag,
    extranonce1Size: opts.extranonce1Size,
    extranonce2Size: opts.extranonce2Size,
    outputs,
  });
  const txids = tpl.transactions.map((tx) => fromRpcHex(tx.txid ?? tx.hash));
  return {
    height: tpl.height,
    prevHashRpc: tpl.previousblockhash.toLowerCase(),
    prevHashStratum: prevHashToStratum(tpl.previousblockhash),
    version: tpl.version,
    bits: tpl.bits.toLowerCase(),
    curtime: tpl.curtime,
    mintime: tpl.mintime ?? tpl.curtime,
    networkTarget: bitsToTarget(tpl.bits),
    coinbaseValue,
    fees: coinbaseValue - subsidy,
    subsidy,
    coinb1,
    coinb2,
    extranonce1Size: opts.extranonce1Size,
    extranonce2Size: opts.extranonce2Size,
    merkleBranch: merkleBranch(txids),
    transactions: tpl.transactions.map((tx) => tx.data.toLowerCase()),
    segwit: commitment !== undefined,
    mweb: tpl.mweb?.toLowerCase(),
  };
}

/** Blocks between two difficulty retargets (Bitcoin and Litecoin alike). */
export const RETARGET_INTERVAL = 2016;

/** What the pool learns of a new tip before its template (getblockheader). */
export interface TipHeader {
  hash: string;
  height: number;
  /** Compact target of the tip block, 8 hex digits. */
  bits: string;
  /** Median time past of the tip (the next block's time must be above it). */
  mediantime: number;
}

/**
 * A template for the block right after `tip` that holds the coinbase alone: no transaction list
 * to wait for, so miners can be moved to the new tip at once. The coinbase takes the subsidy
 * alone (there are no fees), there is no witness commitment (a block without witness data needs
 * none, and its coinbase then carries no witness), and the block keeps the previous template's
 * version. Undefined when the node alone can tell what such a block needs:
 *  - MWEB (Litecoin, once active): every block carries the HogEx transaction that spends the
 *    previous block's, which only the node can build;
 *  - a retarget height (not on regtest, which never retargets), or any testnet block (its
 *    20-minute minimum-difficulty rule): the bits are not the tip's.
 */
export function coinbaseOnlyTemplate(
  previous: BlockTemplateRpc,
  tip: TipHeader,
  params: CoinParams,
  nowSeconds: number,
): BlockTemplateRpc | undefined {
  if (previous.mweb !== undefined || previous.rules?.some((rule) => rule.replace(/^!/, '') === 'mweb'))
    return undefined;
  const height = tip.height + 1;
  if (params.network === 'testnet') return undefined;
  if (params.network !== 'regtest' && height % RETARGET_INTERVAL === 0) return undefined;
  const mintime = tip.mediantime + 1;
  return {
    version: previous.version,
    previousblockhash: tip.hash,
    transactions: [],
    coinbasevalue: Number(blockSubsidy(params, height)),
    bits: tip.bits,
    height,
    curtime: Math.max(nowSeconds, mintime),
    mintime,
    ...(previous.rules ? { rules: previous.rules } : {}),
  };
}

function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

export type NotifyParams = [string, string, string, string, string[], string, string, string, boolean];

/** mining.notify params: [job_id, prevhash, coinb1, coinb2, branch, version, nbits, ntime, clean_jobs]. */
export function notifyParams(job: JobTemplate, jobId: string, cleanJobs: boolean): NotifyParams {
  return [
    jobId,
    job.prevHashStratum,
    job.coinb1.toString('hex'),
    job.coinb2.toString('hex'),
    job.merkleBranch.map((b) => b.toString('hex')),
    hex8(job.version),
    job.bits,
    hex8(job.curtime),
    cleanJobs,
  ];
}
