/**
 * Share validation throughput on one core: `npx tsx packages/protocol/bench/build-share.bench.ts`.
 * A frozen 2,000-transaction template (11-entry merkle branch); every share gets a fresh
 * extranonce2 and nonce, so each one pays for the whole coinbase + branch + header.
 */
import {
  addressToOutputScript,
  buildShare,
  coinParams,
  jobFromTemplate,
  type Algorithm,
} from '../src/index.js';
import { fixtureTemplate } from '../test/test-fixtures.js';

function measure(algorithm: Algorithm, shares: number): number {
  const params = coinParams(algorithm === 'sha256d' ? 'BTC' : 'LTC', 'regtest');
  const { template } = fixtureTemplate({ txCount: 1999, height: 200, subsidy: 2_500_000_000n, segwit: true });
  const job = jobFromTemplate(template, params, {
    payoutScript: addressToOutputScript(
      params.coin === 'BTC'
        ? 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn'
        : 'rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7k693xs3',
      params,
    ),
    poolTag: '/Manjam/',
    extranonce1Size: 4,
    extranonce2Size: 8,
  });
  const extranonce1 = Buffer.from('f000000d', 'hex');
  const extranonce2 = Buffer.alloc(8);
  let below = 0;
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < shares; i++) {
    extranonce2.writeUInt32LE(i, 0);
    const share = buildShare(job, algorithm, {
      extranonce1,
      extranonce2,
      ntime: job.curtime,
      nonce: i,
      version: job.version,
    });
    if (share.hashValue <= job.networkTarget) below++;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  // CPU time is the fairer figure on a shared machine: wall time includes other processes.
  process.stdout.write(
    `${algorithm}: ${shares} shares, branch ${job.merkleBranch.length}: ` +
      `${(shares / cpuSeconds).toFixed(0)} shares per CPU-second (${((cpuSeconds / shares) * 1e6).toFixed(1)} us), ` +
      `${(shares / seconds).toFixed(0)} shares/s wall; ${below} under the regtest target\n`,
  );
  return shares / cpuSeconds;
}

measure('sha256d', 20_000);
measure('sha256d', 200_000);
measure('scrypt', 4_000);
