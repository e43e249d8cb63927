// `npx tsx bench/kheavyhash.ts [--seconds=3]`: kHeavyHash evaluations per second on one core,
// the fast path against the plain code, and the cost of a job's state (bench/lib/kheavyhash-speed.ts).
import { kaspaPowState } from '@manjam/protocol/kaspa';
import {
  fastHashRate,
  jobStateMs,
  plainHashRate,
  SAMPLE_PRE_POW,
  SAMPLE_TIMESTAMP,
} from './lib/kheavyhash-speed.js';
import { Report, fixed, int, load } from './lib/report.js';

const seconds = Number(process.argv.find((a) => a.startsWith('--seconds='))?.split('=')[1] ?? 3);
const report = new Report(`bench/results/kheavyhash-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`);
const state = kaspaPowState(SAMPLE_PRE_POW, SAMPLE_TIMESTAMP);
fastHashRate(state, 0.5); // warm-up: let the JIT compile the hot path
const fast = fastHashRate(state, seconds);
const plain = plainHashRate(state, Math.max(1, seconds / 3));
report.line(`kheavyhash ${new Date().toISOString()} node ${process.version} load ${load()}`);
report.line(
  `fast path : ${int(fast.perSecond)} kHeavyHash/s on one core (${int(fast.count)} in ${fixed(fast.seconds, 2)} s)`,
);
report.line(`plain code: ${int(plain.perSecond)} kHeavyHash/s (noble cshake256 twice, row by row)`);
report.line(`job state : ${fixed(jobStateMs(50), 3)} ms per template (matrix draw + rank + cSHAKE base)`);
