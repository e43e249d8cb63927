// kHeavyHash speed on this core, for bench/kheavyhash.ts and the kaspa-pow drill phase: the
// fast path (per-job KaspaPowState, precomputed cSHAKE states, matrix row pairs) against the
// plain kaspad-shaped code on noble's cshake256, and what a job's state costs to build.
import {
  hexToBytes,
  kaspaPowState,
  kaspaPowWordsOf,
  kaspaPowHashPlain,
  type KaspaPowState,
} from '@manjam/protocol/kaspa';

/** The pre-PoW hash and timestamp of a real mainnet template (kaspa-stratum-bridge's example). */
export const SAMPLE_PRE_POW = hexToBytes(
  '853a0bb20ce86f2666da260099e3ab24bb4df7c83a9630e3f519f29a41142ed2',
  'prePow',
);
export const SAMPLE_TIMESTAMP = 1661062150793n;

export interface Rate {
  count: number;
  seconds: number;
  perSecond: number;
}

function timed(seconds: number, step: (i: number) => void): Rate {
  const start = performance.now();
  const end = start + seconds * 1000;
  let count = 0;
  while (performance.now() < end) {
    for (let i = 0; i < 256; i++) step(count + i);
    count += 256;
  }
  const elapsed = (performance.now() - start) / 1000;
  return { count, seconds: elapsed, perSecond: count / elapsed };
}

export function fastHashRate(state: KaspaPowState, seconds: number): Rate {
  const out = new Uint32Array(8);
  return timed(seconds, (i) => kaspaPowWordsOf(state, i >>> 0, 0x5a5a, out));
}

export function plainHashRate(state: KaspaPowState, seconds: number): Rate {
  return timed(seconds, (i) => kaspaPowHashPlain(state.matrix, state.prePow, state.timestamp, BigInt(i)));
}

/** Milliseconds to build a job's state (matrix draw and rank, cSHAKE base), averaged. */
export function jobStateMs(jobs: number): number {
  const seed = SAMPLE_PRE_POW.slice();
  const start = performance.now();
  for (let i = 0; i < jobs; i++) {
    seed[0] = i & 0xff;
    seed[1] = (i >>> 8) & 0xff;
    kaspaPowState(seed, SAMPLE_TIMESTAMP);
  }
  return (performance.now() - start) / jobs;
}
