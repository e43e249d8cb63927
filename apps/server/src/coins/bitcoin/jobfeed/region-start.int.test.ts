// Issue 25 item 7: a regional Stratum process (`manjam start --role stratum --region riyadh`, a
// real process) configured for BTC and LTC while the core publishes BTC only. It must start BTC,
// say that LTC waits and why, turn LTC miners away, and stop at the first SIGTERM.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WORK_PAUSED_MESSAGE } from '../stratum/coin-availability.js';
import { StratumTestClient } from '../../../../test/support/coins/bitcoin/stratum/client.js';
import { startPoolProcess, type PoolProcess } from '../../../../test/support/pool-processes.js';
import { SIGNAL_EXIT_CODES } from '../../../signals.js';
import { freePort } from '../../../../test/support/nats-cluster.js';
import { startWatched } from '../../../../test/support/processes.js';
import {
  DIFFICULTY,
  startCoreOnFeed,
  type CoreOnFeed,
} from '../../../../test/support/coins/bitcoin/jobfeed.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

/** What "promptly" means for a stop signal here: a clean stop of a Stratum node takes a few seconds at most. */
const STOP_LIMIT_MS = 10_000;

const VARDIFF = { start: DIFFICULTY, min: DIFFICULTY, max: 1e12 };
const MANJAM_BIN = fileURLToPath(new URL('../../../../bin/manjam.mjs', import.meta.url));

const portOf = (output: string, coin: string): number =>
  Number(output.match(new RegExp(`Stratum ${coin}\\s+stratum\\+tcp://[^:]+:(\\d+)`))?.[1] ?? 0);

describe('a region configured for a coin the core does not publish', () => {
  let core: CoreOnFeed;
  let region: PoolProcess | undefined;

  beforeAll(async () => {
    core = await startCoreOnFeed(30_000);
  });

  afterAll(async () => {
    if (region && region.child.exitCode === null) {
      region.child.kill('SIGKILL');
      await region.exited;
    }
    await core?.stop();
  });

  it('starts the coins the core publishes, says which coin waits and why, and stops at the first SIGTERM', async () => {
    const startedAt = Date.now();
    region = await startPoolProcess(
      'stratum',
      {
        // Logins on the process's own PGlite: nothing here depends on the core's database.
        dataDir: mkdtempSync(join(tmpdir(), 'manjam-region-start-')),
        log: { level: 'info', pretty: false },
        http: { host: '127.0.0.1', port: 0, webDist: '' },
        chains: {
          BTC: { network: 'regtest', nodeSilenceSeconds: 30 },
          LTC: { network: 'regtest', nodeSilenceSeconds: 30 },
          XMR: { enabled: false },
          KAS: { enabled: false },
        },
        stratum: {
          host: '127.0.0.1',
          instanceId: 5,
          ports: [
            { port: 0, coin: 'BTC', vardiff: VARDIFF },
            { port: 0, coin: 'LTC', vardiff: VARDIFF },
          ],
        },
        distributed: { natsUrl: core.leaf.url, domain: 'riyadh', jobsFromCore: true },
      },
      120_000,
      ['--region', 'riyadh'],
    );
    const startMs = Date.now() - startedAt;
    const output = region.output();
    expect(output).toMatch(/LTC waits: the core publishes no LTC jobs/);
    expect(output).not.toMatch(/BTC waits/);

    // BTC mines on the core's work.
    const btc = await StratumTestClient.connect(portOf(output, 'BTC'));
    await btc.subscribe();
    expect((await btc.authorize(`${core.chain.poolAddress}.riyadh5`)).result).toBe(true);
    const job = await btc.waitForJob();
    expect(job.template.prevHashRpc).toBe(await core.nodes.current.getBestBlockHash());
    await btc.close();

    // LTC's port is open and tells its miners why there is no work.
    const ltc = await StratumTestClient.connect(portOf(output, 'LTC'));
    await ltc.closedPromise;
    expect(ltc.received.join('')).toContain(WORK_PAUSED_MESSAGE);

    const signalAt = Date.now();
    region.child.kill('SIGTERM');
    const code = await region.exited;
    const stopMs = Date.now() - signalAt;
    process.stdout.write(
      `[region start] BTC + LTC configured, core publishes BTC: banner ${startMs} ms after the process started (the server build included); ` +
        `first SIGTERM -> exit code ${code} after ${stopMs} ms\n`,
    );
    expect(code).toBe(0);
    expect(stopMs).toBeLessThan(STOP_LIMIT_MS);
  });

  it('stops at the first SIGTERM while still starting (its leaf server not there yet)', async () => {
    // A NATS URL nothing listens on: the start waits for the server (logged), and a stop signal ends it.
    const dir = mkdtempSync(join(tmpdir(), 'manjam-region-start-'));
    const file = join(dir, 'manjam.config.json');
    writeFileSync(
      file,
      JSON.stringify({
        dataDir: dir,
        log: { level: 'info', pretty: false },
        http: { host: '127.0.0.1', port: 0, webDist: '' },
        chains: {
          BTC: { network: 'regtest' },
          LTC: { enabled: false },
          XMR: { enabled: false },
          KAS: { enabled: false },
        },
        stratum: { host: '127.0.0.1', ports: [{ port: 0, coin: 'BTC', vardiff: VARDIFF }] },
        distributed: {
          natsUrl: `nats://127.0.0.1:${await freePort()}`,
          domain: 'riyadh',
          jobsFromCore: true,
        },
      }),
    );
    const waiting = startWatched(
      process.execPath,
      [MANJAM_BIN, 'start', '--role', 'stratum', '--region', 'riyadh', '--config', file],
      { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root' } },
    );
    await waiting.waitFor(/connecting to the JetStream share log/, 120_000);
    const signalAt = Date.now();
    waiting.child.kill('SIGTERM');
    const code = await waiting.exited;
    const stopMs = Date.now() - signalAt;
    process.stdout.write(`[region start] SIGTERM during start-up -> exit code ${code} after ${stopMs} ms\n`);
    expect(stopMs).toBeLessThan(STOP_LIMIT_MS);
    expect(code).toBe(SIGNAL_EXIT_CODES.SIGTERM);
    expect(waiting.output()).toMatch(/stopped during start-up/);
  });
});
