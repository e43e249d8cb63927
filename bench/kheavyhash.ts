// `npx tsx bench/kheavyhash.ts [--seconds=3]`: kHeavyHash evaluations per second on one core,
// the fast path against the plain code, and the cost of a job's state (bench/lib/kheavyhash-speed.ts).
import { kaspaPowState } from '@manjam/protocol/kaspa';
import {
  fastHashRate,
  jobStateMs,
  hashAndKeccakRates,
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
  `fast path : ${int(fast.perSecond)} kHeavyHash/s on one core, best 100 ms slice (average ${int(fast.average)} over ${fixed(fast.seconds, 1)} s)`,
);
report.line(
  `plain code: ${int(plain.perSecond)} kHeavyHash/s (noble cshake256 twice, row by row), best slice`,
);
const [hashes, keccaks] = hashAndKeccakRates(state, seconds);
const perHashUs = 1e6 / hashes;
const keccakUs = 1e6 / keccaks;
report.line(
  `per hash  : ${fixed(perHashUs, 2)} µs, of which 2 x Keccak-f = ${fixed(2 * keccakUs, 2)} µs (${fixed((200 * keccakUs) / perHashUs, 0)} %), matrix product and the rest ${fixed(perHashUs - 2 * keccakUs, 2)} µs (measured in alternating slices)`,
);
report.line(`job state : ${fixed(jobStateMs(50), 3)} ms per template (matrix draw + rank + cSHAKE base)`);
