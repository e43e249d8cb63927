// docs/REGIONS.md followed as written: `npm run regions:demo` (scripts/regions-demo.mjs) takes the
// NATS configurations, variables and commands from the page itself (with only the one-host
// changes the page lists) and brings up three core NATS servers, Riyadh's leaf, the core's
// accounting pair and api on one BTC node, and a regional Stratum node taking its jobs from the
// core. A miner mines through the region: every share it was told `true` is stored and credited
// by the core; the api serves the web app; one SIGTERM stops every process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWalletMiner, regtestAddress } from '../../test/support/accounting/fixtures.js';
import { TEST_DATABASE_URL, openTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { schemaUrl } from '../../test/support/pool-processes.js';
import { portAnswers, startWatched, waitUntil, type WatchedProcess } from '../../test/support/processes.js';
import {
  allStoredAndCredited,
  connectWalletMiner,
  mineNonBlocks,
  type WalletMiner,
} from '../../test/support/wallet-miners.js';

const DEMO = fileURLToPath(new URL('../../../../scripts/regions-demo.mjs', import.meta.url));
/** Below the regtest network's difficulty, so that shares are shares and not blocks. */
const DIFFICULTY = 3e-10;
const ADDRESS = regtestAddress('regions doc miner');

interface Ready {
  web: string;
  stratum: string;
  natsCore: string;
  natsLeaf: string;
}

/**
 * A port offset whose every port the demo takes (the doc's ports + offset) is free, all of them
 * below Linux's ephemeral range (32768 and up), where the kernel hands out the ports of other
 * tests' connections and listeners between our check and the demo's bind.
 */
async function freeOffset(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const offset = 10_000 + Math.floor(Math.random() * 140) * 100;
    const ports = [4222, 4223, 4224, 6222, 6223, 6224, 7422, 7423, 7424, 4322, 8080, 3333].map(
      (p) => p + offset,
    );
    const taken = await Promise.all(ports.map((p) => portAnswers(p)));
    if (!taken.some(Boolean)) return offset;
  }
  throw new Error('no free block of ports for the demo');
}

const portOf = (url: string): number => Number(new URL(url.replace('stratum+tcp', 'http')).port);

describe('docs/REGIONS.md on one machine (npm run regions:demo)', () => {
  let database: TestDatabase;
  let demo: WatchedProcess;
  let ready: Ready;
  let miner: WalletMiner | undefined;

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    const offset = await freeOffset();
    demo = startWatched(
      process.execPath,
      [
        DEMO,
        `--dir=${mkdtempSync(join(tmpdir(), 'manjam-regions-demo-'))}`,
        `--database-url=${schemaUrl(TEST_DATABASE_URL, database.schema ?? '')}`,
        `--port-offset=${offset}`,
        `--difficulty=${DIFFICULTY}`,
      ],
      { env: process.env },
    );
    const line = await demo.waitFor(/regions demo ready: (\{.*\})/, 300_000);
    ready = JSON.parse(line[1] ?? '{}') as Ready;
  }, 320_000);

  afterAll(async () => {
    await miner?.client.close();
    if (demo.child.exitCode === null) demo.child.kill('SIGKILL');
    await database.drop();
  });

  it('mines through the Riyadh region: every share the miner was told true is stored and credited by the core', async () => {
    await createWalletMiner(database.db, 'BTC', ADDRESS);
    miner = await connectWalletMiner(portOf(ready.stratum), ADDRESS, 'rig1');
    await mineNonBlocks(miner, 30);
    expect(miner.acknowledged).toBe(30);
    const seconds = await waitUntil(
      () => allStoredAndCredited(database.db, miner ? [miner] : []),
      60_000,
      'stored and credited',
    );
    process.stdout.write(
      `regions doc: 30 acknowledged in Riyadh, stored and credited by the core ${seconds.toFixed(1)} s later\n`,
    );
  }, 120_000);

  it("serves the web app and a healthy /api/health from the core's api process", async () => {
    const health = (await (await fetch(`${ready.web}/api/health`)).json()) as {
      status: string;
      chains: { coin: string; ok: boolean; height: number | null; tipAt?: string }[];
    };
    expect(health.status).toBe('ok');
    // The api runs no node: it lists the tip the region's Stratum node recorded.
    expect(health.chains.map((c) => [c.coin, c.ok, typeof c.height, typeof c.tipAt])).toEqual([
      ['BTC', true, 'number', 'string'],
    ]);
    const page = await (await fetch(`${ready.web}/`)).text();
    expect(page).toContain('<!doctype html>');
  });

  it('stops every process at one SIGTERM, leaving no port open', async () => {
    await miner?.client.close();
    miner = undefined;
    const began = Date.now();
    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);
    const seconds = (Date.now() - began) / 1000;
    process.stdout.write(`regions doc: every process stopped ${seconds.toFixed(1)} s after one SIGTERM\n`);
    const ports = [ready.web, ready.stratum, ...ready.natsCore.split(','), ready.natsLeaf].map(portOf);
    const open = await Promise.all(ports.map((p) => portAnswers(p)));
    expect(open.filter(Boolean)).toEqual([]);
    expect(seconds).toBeLessThan(30);
  }, 60_000);
});
