// kHeavyHash speed on this core, for bench/kheavyhash.ts and the kaspa-pow drill phase: the
// fast path (per-job KaspaPowState, precomputed cSHAKE states, matrix row pairs) against the
// plain kaspad-shaped code on noble's cshake256, and what a job's state costs to build.
import { keccakP } from '@noble/hashes/sha3';
import {
  hexToBytes,
  kaspaPowState,
  kaspaPowWordsOf,
  kaspaPowHashPlain,
  type KaspaPowState,
} from '@manjam/protocol/kaspa';
import { threadCpuUs } from './proc-cpu.js';

/** The pre-PoW hash and timestamp of a real mainnet template (kaspa-stratum-bridge's example). */
export const SAMPLE_PRE_POW = hexToBytes(
  '853a0bb20ce86f2666da260099e3ab24bb4df7c83a9630e3f519f29a41142ed2',
  'prePow',
);
export const SAMPLE_TIMESTAMP = 1661062150793n;

export interface Rate {
  count: number;
  seconds: number;
  /** Over the whole run. */
  average: number;
  /** The best 100 ms slice: on a machine shared with other work, the core's own speed. */
  perSecond: number;
  /**
   * Over the whole run, per CPU-second of this thread (from /proc: a process's other threads, such
   * as V8 compiling other code just after start, are not counted; nor is time given to others).
   */
  perCpuSecond: number;
}

const SLICE_MS = 100;

/** This process's main thread (the one that hashes here), CPU microseconds. */
function mainThreadCpuUs(): number {
  return threadCpuUs(process.pid).get(process.pid) ?? 0;
}

/** Run `step` for one slice; how many ran and the slice's rate per second. */
function slice(step: (i: number) => void, from: number): { count: number; rate: number } {
  const sliceStart = performance.now();
  const sliceEnd = sliceStart + SLICE_MS;
  let count = 0;
  while (performance.now() < sliceEnd) {
    for (let i = 0; i < 64; i++) step(from + count + i);
    count += 64;
  }
  return { count, rate: count / ((performance.now() - sliceStart) / 1000) };
}

/**
 * Best-slice rates of two steps measured in alternating slices, so both see the same load:
 * their ratio holds even when other work shares the machine.
 */
export function interleaved(
  seconds: number,
  a: (i: number) => void,
  b: (i: number) => void,
): [number, number] {
  const end = performance.now() + seconds * 1000;
  let bestA = 0;
  let bestB = 0;
  for (let n = 0; performance.now() < end; n += 1_000_000) {
    bestA = Math.max(bestA, slice(a, n).rate);
    bestB = Math.max(bestB, slice(b, n).rate);
  }
  return [bestA, bestB];
}

function timed(seconds: number, step: (i: number) => void): Rate {
  const cpuBefore = mainThreadCpuUs();
  const start = performance.now();
  const end = start + seconds * 1000;
  let count = 0;
  let best = 0;
  while (performance.now() < end) {
    const sliceStart = performance.now();
    const sliceEnd = sliceStart + SLICE_MS;
    let sliceCount = 0;
    while (performance.now() < sliceEnd) {
      for (let i = 0; i < 64; i++) step(count + sliceCount + i);
      sliceCount += 64;
    }
    count += sliceCount;
    best = Math.max(best, sliceCount / ((performance.now() - sliceStart) / 1000));
  }
  const elapsed = (performance.now() - start) / 1000;
  const cpuSeconds = (mainThreadCpuUs() - cpuBefore) / 1e6;
  return {
    count,
    seconds: elapsed,
    average: count / elapsed,
    perSecond: best,
    perCpuSecond: count / cpuSeconds,
  };
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

/** kHeavyHash/s and noble's Keccak-f[1600]/s side by side (a kHeavyHash costs two of the latter). */
export function hashAndKeccakRates(state: KaspaPowState, seconds: number): [number, number] {
  const out = new Uint32Array(8);
  const keccakState = new Uint32Array(50).fill(0x9e3779b9);
  return interleaved(
    seconds,
    (i) => kaspaPowWordsOf(state, i >>> 0, 0x5a5a, out),
    () => keccakP(keccakState),
  );
}
