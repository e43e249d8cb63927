// The KAS ports on a StratumKit built by hand, as stratum/index.ts builds it: the real ShareWriter
// (journal before `true`, then the database: PGlite), LoginResolver, ban list and extranonces, on
// the real kaspad simnet chain. Every accepted share is in the journal before its `true` and in
// the shares table once the writer flushes. (The whole pool on KAS: e2e/kaspa-pool.int.test.ts.)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureKaspad } from '../../../../../../scripts/kaspad.mjs';
import { configSchema } from '../../../config/index.js';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/db.js';
import { PoolEvents } from '../../../events.js';
import { HashrateTracker } from '../../../shares/hashrate.js';
import { ShareWriter } from '../../../shares/writer.js';
import { LoginResolver } from '../../../stratum/auth.js';
import { BanList } from '../../../stratum/bans.js';
import { ExtranonceAllocator } from '../../../stratum/extranonce.js';
import type { StratumKit } from '../../../stratum/kit.js';
import type { FamilyPorts } from '../../family.js';
import { startKaspaDevChain, type KaspaDevChain } from '../devchain.js';
import { KaspaTemplateSource } from '../template-source.js';
import { openKaspaPorts } from './ports.js';
import { TEST_VARDIFF } from '../../../../test/support/coins/kaspa/stratum/standalone.js';
import { KaspaTestMiner } from '../../../../test/support/coins/kaspa/stratum/miner.js';
import { KAS } from './types.js';

const logger = pino({ level: 'warn' });

describe('the KAS ports on the shared Stratum kit [pglite]', () => {
  let chain: KaspaDevChain;
  let source: KaspaTemplateSource;
  let database: TestDatabase;
  let writer: ShareWriter;
  let ports: FamilyPorts;
  let dataDir: string;
  let miner: KaspaTestMiner;

  beforeAll(async () => {
    const installed = await ensureKaspad({ quiet: true });
    if (!installed.ok) throw new Error(installed.reason);
    chain = await startKaspaDevChain({ binaries: installed.binaries, logger, unfunded: true });
    source = new KaspaTemplateSource({ node: chain.node, payAddress: chain.poolAddress, logger });
    await source.start();
    database = await openTestDatabase('pglite');
    dataDir = await mkdtemp(join(tmpdir(), 'manjam-kas-kit-'));
    const config = configSchema.parse({ dataDir });
    const events = new PoolEvents();
    writer = new ShareWriter({ db: database.db, events, logger, dataDir });
    await writer.start();
    const kit: StratumKit = {
      config,
      db: database.db,
      logger,
      events,
      writer,
      resolver: new LoginResolver(database.db),
      bans: new BanList(config.stratum.ban),
      allocator: new ExtranonceAllocator(),
      hashrate: new Map([[KAS, new HashrateTracker('kheavyhash')]]),
      maxConnectionsPerPort: 1_000,
    };
    ports = await openKaspaPorts(kit, { source, network: chain.network, configNetwork: 'regtest' }, [
      { port: 0, scheme: 'pps-plus', vardiff: TEST_VARDIFF },
    ]);
    ports.start();
    miner = await KaspaTestMiner.connect(ports.ports()[0]!.port);
    await miner.request('mining.subscribe', ['lolMiner 1.88']);
    await miner.request('mining.authorize', [`${chain.poolAddress}.kit`, 'x']);
    await miner.jobCount(1);
  }, 120_000);

  afterAll(async () => {
    miner?.close();
    await ports?.close();
    await writer?.stop();
    await source?.stop();
    await chain?.stop();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('has every share it answered true in the shares table once the writer flushes', async () => {
    const target = source.current!.target;
    for (let i = 0; i < 3; i++) {
      const job = miner.jobs.at(-1)!;
      const reply = await miner.submit(
        'kit',
        job,
        miner.find(job, (pow, share) => pow <= share && pow > target),
      );
      expect(reply.result).toBe(true);
    }
    await writer.flush();
    const rows = await database.db.query<{ n: bigint }>(
      "SELECT count(*)::bigint AS n FROM shares WHERE coin = 'KAS'",
    );
    expect(Number(rows.rows[0]?.n)).toBe(3);
    expect(writer.stats.sharesWaiting).toBe(0);
    expect(ports.stats()).toMatchObject({ connections: 1, accepted: 3 });
    // The operator's per-port figures (listener.ts PortWork) count the port's accepted shares.
    expect(ports.ports()[0]!.sharesPerSecond).toBeGreaterThan(0);
    expect(ports.ports()[0]!.hashrate).toBeGreaterThan(0);
    process.stdout.write(
      `[figure] KAS kit: 3 shares -> ${String(rows.rows[0]?.n)} in the table, ${writer.stats.sharesWaiting} waiting in the journal\n`,
    );
  });

  it('submits a block found on the port to kaspad, which holds it in its DAG', async () => {
    const job = miner.jobs.at(-1)!;
    const before = (await chain.node.getBlockDagInfo()).blockCount;
    const reply = await miner.submit(
      'kit',
      job,
      miner.find(job, (pow) => pow <= source.current!.target),
    );
    expect(reply.result).toBe(true);
    let after = before;
    for (let i = 0; i < 50 && after === before; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = (await chain.node.getBlockDagInfo()).blockCount;
    }
    expect(BigInt(after)).toBe(BigInt(before) + 1n);
  });
});
