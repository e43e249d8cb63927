// The SUMMARY lines of `npm run bench:stratum`: each target with MET or NOT MET.
import type { Figures } from './print.js';
import type { RandomXFigures } from './randomx-phase.js';
import { printComparison, type RejectFigures } from './reject-phase.js';
import { fixed, int, load, ms, verdict, type Report } from './report.js';
import type { ScryptCapacity } from './scrypt-capacity.js';

export function summary(
  report: Report,
  r: Partial<Record<string, Figures>>,
  capacity: ScryptCapacity,
  quick: boolean,
): void {
  const scryptCapacity = capacity.perSecond;
  report.line(
    `SUMMARY (load average at the end: ${load()})${quick ? ' -- QUICK RUN: smaller scale, targets do not apply' : ''}`,
  );
  const sha = r['sha256d-max'];
  if (sha) {
    report.line(
      `  SHA-256d accepted shares/s at max rate, ${int(sha.connections)} connections, ${sha.depth} in flight each: ${int(sha.acceptedPerSecond)} (target >= 50,000: ${verdict(sha.acceptedPerSecond >= 50_000)})`,
    );
    report.line(
      `    pool CPU ${int(sha.poolCpuPercent)} % of one core; per pool CPU-second: ${int(sha.perPoolCpuSecond)} shares, ${int(sha.perPoolCpuSecondPersisted)} with persistence`,
    );
  }
  const piped = r['sha256d-pipelined'];
  if (piped) {
    report.line(
      `  SHA-256d accepted shares/s, pipelined, ${int(piped.connections)} connections, ${piped.depth} in flight each: ${int(piped.acceptedPerSecond)} (target >= 50,000: ${verdict(piped.acceptedPerSecond >= 50_000)})`,
    );
    report.line(
      `    pool CPU ${int(piped.poolCpuPercent)} % of one core; per pool CPU-second: ${int(piped.perPoolCpuSecond)} shares, ${int(piped.perPoolCpuSecondPersisted)} with persistence`,
    );
  }
  const rate = r['sha256d-rate'];
  if (rate) {
    report.line(
      `  SHA-256d at ${int(rate.fixedRate)} shares/s over ${int(rate.connections)} connections: p50 ${ms(rate.p50)}, p99 ${ms(rate.p99)} (target p99 < 10 ms: ${verdict(rate.p99 < 10)}), accepted ${int(rate.acceptedPerSecond)}/s`,
    );
    report.line(
      `  memory per connection (${int(rate.connections)} connections): ${fixed(rate.kibPerConnection)} KiB; pool CPU ${int(rate.poolCpuPercent)} % of one core`,
    );
  }
  const scrypt = r['scrypt-max'];
  if (scrypt) {
    const share = (scrypt.acceptedPerSecond / scryptCapacity) * 100;
    report.line(
      `  Scrypt accepted shares/s at max rate, ${int(scrypt.connections)} connections: ${int(scrypt.acceptedPerSecond)} = ${fixed(share)} % of the cores' scrypt capacity ${int(scryptCapacity)}/s (target >= 80 %: ${verdict(share >= 80)})`,
    );
    const perCpu = (scrypt.perPoolCpuSecond / capacity.perCpuSecond) * 100;
    report.line(
      `    per CPU-second: the pool accepts ${int(scrypt.perPoolCpuSecond)} shares, Node scrypt alone hashes ${int(capacity.perCpuSecond)} = ${fixed(perCpu)} %`,
    );
  }
}

export function summaryRejects(
  report: Report,
  r: { manjam: RejectFigures; other: RejectFigures | undefined },
): void {
  report.line(
    `  SHA-256d rejected shares (hashed in full), ${r.manjam.label}: ${int(r.manjam.answeredPerSecond)} shares/s, ` +
      `${int(r.manjam.perPoolCpuSecond ?? 0)} per pool CPU-second, p99 ${ms(r.manjam.p99)}`,
  );
  if (r.other) printComparison(report, r.manjam, r.other);
}

export function summaryRandomX(report: Report, r: RandomXFigures, quick: boolean): void {
  report.line(
    `  RandomX (XMR) accepted shares/s, ${r.connections} miners, ${r.threads} RandomX threads: ${fixed(r.acceptedPerSecond)} = ${fixed(r.percentOfCapacity)} % of raw librandomx on the same threads ${fixed(r.capacity.perSecond)}/s (target >= 80 %: ${quick ? 'quick run' : verdict(r.percentOfCapacity >= 80)})`,
  );
  report.line(
    `    per CPU-second: the pool accepts ${fixed(r.perPoolCpuSecond)} shares, RandomXPool alone hashes ${fixed(r.capacity.perCpuSecond)} = ${fixed(r.percentPerCpuSecond)} %; ` +
      `memory per epoch ${fixed(r.memory.twoSeeds - r.memory.afterRun)} MiB (RSS ${fixed(r.memory.afterRun)} MiB with one seed, ${fixed(r.memory.twoSeeds)} with two); blocks submitted ${r.blocksSubmitted}`,
  );
}
