// The V1 port's jobs (jobs.ts) as Stratum V2 messages: one job, built once from the template for
// both dialects, goes out as NewExtendedMiningJob (the coinbase halves and merkle path V1's
// mining.notify carries) or, on a standard channel, as NewMiningJob with the merkle root of the
// channel's own coinbase. A job on a new previous block goes out as a future job (no min_ntime)
// followed by SetNewPrevHash, as SV2 §5.3.13-5.3.16 lays out; a refresh on the same tip is active
// at once. V2 job ids are the job's sequence number, the V1 id's value (hex of it). On a new tip
// every extended channel gets the same two messages but for their channel id (the first field of
// both): they are encoded once per job (jobFrames) and each channel copies them with its own id;
// only the Noise encryption is per channel.
import { merkleRootFromBranch, sha256d } from '@manjam/protocol';
import { encodeMessage, type Frame, type Sv2MessageOf } from '@manjam/protocol/sv2';
import type { Job } from '../stratum/jobs.js';

/** A target as SV2's U256 (little-endian, 32 bytes). */
export function targetToU256(target: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let v = target;
  for (let i = 0; i < 32 && v > 0n; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

export function u256ToTarget(bytes: Uint8Array): bigint {
  let v = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[i] as number);
  return v;
}

/** The V1 job id a V2 job id names. */
export function jobIdOf(v2JobId: number): string {
  return v2JobId.toString(16);
}

/** min_ntime of a job message: none for a future job (SetNewPrevHash follows), else the template's time. */
function minNtime(job: Job, future: boolean): number | null {
  return future ? null : job.template.curtime;
}

export function extendedJob(
  channelId: number,
  job: Job,
  future: boolean,
): Sv2MessageOf<'NewExtendedMiningJob'> {
  const tpl = job.template;
  return {
    type: 'NewExtendedMiningJob',
    channelId,
    jobId: job.seq,
    minNtime: minNtime(job, future),
    version: tpl.version,
    versionRollingAllowed: true,
    merklePath: tpl.merkleBranch,
    coinbaseTxPrefix: tpl.coinb1,
    coinbaseTxSuffix: tpl.coinb2,
  };
}

/** A standard channel's job: the merkle root of its coinbase with its whole extranonce (`extranonce`). */
export function standardJob(
  channelId: number,
  job: Job,
  extranonce: Buffer,
  future: boolean,
): Sv2MessageOf<'NewMiningJob'> {
  const tpl = job.template;
  const coinbase = Buffer.concat([tpl.coinb1, extranonce, tpl.coinb2]);
  return {
    type: 'NewMiningJob',
    channelId,
    jobId: job.seq,
    minNtime: minNtime(job, future),
    version: tpl.version,
    merkleRoot: merkleRootFromBranch(sha256d(coinbase), tpl.merkleBranch),
  };
}

export function newPrevHash(channelId: number, job: Job): Sv2MessageOf<'SetNewPrevHash'> {
  const tpl = job.template;
  return {
    type: 'SetNewPrevHash',
    channelId,
    jobId: job.seq,
    // The header's byte order (internal), which is U256's little-endian order.
    prevHash: Buffer.from(tpl.prevHashRpc, 'hex').reverse(),
    minNtime: tpl.curtime,
    nbits: Number.parseInt(tpl.bits, 16),
  };
}

/** A job's messages as every extended channel gets them, encoded with channel id 0. */
interface JobFrames {
  /** NewExtendedMiningJob as a future job (no min_ntime), then as one active at once. */
  readonly future: Frame;
  readonly active: Frame;
  readonly prevHash: Frame;
}

const framesOf = new WeakMap<Job, JobFrames>();

/** The job's messages encoded once, on the first channel that needs them. */
function jobFrames(job: Job): JobFrames {
  let frames = framesOf.get(job);
  if (!frames) {
    frames = {
      future: encodeMessage(extendedJob(0, job, true)),
      active: encodeMessage(extendedJob(0, job, false)),
      prevHash: encodeMessage(newPrevHash(0, job)),
    };
    framesOf.set(job, frames);
  }
  return frames;
}

/** `frame` (a channel message encoded with channel id 0) for channel `channelId`: a copy with its id. */
function forChannel(frame: Frame, channelId: number): Frame {
  const payload = frame.payload.slice();
  // channel_id is the first field of every channel message, a U32 little-endian.
  payload[0] = channelId & 0xff;
  payload[1] = (channelId >>> 8) & 0xff;
  payload[2] = (channelId >>> 16) & 0xff;
  payload[3] = (channelId >>> 24) & 0xff;
  return { extensionType: frame.extensionType, msgType: frame.msgType, payload };
}

/** extendedJob(channelId, job, future) encoded: the job's bytes, built once, with the channel's id. */
export function extendedJobFrame(channelId: number, job: Job, future: boolean): Frame {
  const frames = jobFrames(job);
  return forChannel(future ? frames.future : frames.active, channelId);
}

/** newPrevHash(channelId, job) encoded: the job's bytes, built once, with the channel's id. */
export function newPrevHashFrame(channelId: number, job: Job): Frame {
  return forChannel(jobFrames(job).prevHash, channelId);
}
