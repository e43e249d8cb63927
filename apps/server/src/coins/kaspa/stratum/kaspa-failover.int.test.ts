// KAS node faults as a miner on port 7777 meets them, on the real kaspad simnet chain with a second
// kaspad following it over P2P as the backup node (chains.KAS.rpcBackupAddresses): the primary
// frozen (SIGSTOP) -> templates come from the backup, the miner keeps mining; both frozen -> past
// the silence limit the miner is sent away and new connections are refused; both back -> work
// resumes and the primary is taken back. Each step's time is printed as a figure.
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
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
import type { RunningKaspad } from '../dev-processes.js';
import { startKaspaDevChain, type KaspaDevChain } from '../devchain.js';
import { KaspadClient } from '../kaspad-client.js';
import { FAILBACK_PROBE_MS, KAS_NODE_CALL_TIMEOUT_MS, KaspadNodes } from '../kaspad-nodes.js';
import { KaspaTemplateSource } from '../template-source.js';
import { openKaspaPorts } from './ports.js';
import { TEST_VARDIFF } from '../../../../test/support/coins/kaspa/stratum/standalone.js';
import { KaspaTestMiner } from '../../../../test/support/coins/kaspa/stratum/miner.js';
import { KAS } from './types.js';

const logger = pino({ level: 'warn' });
/**
 * The silence limit of these tests: a failover takes a quiet second, the frozen node's 3 s call
 * timeout and the backup's answer (slower on a loaded machine), well inside it.
 */
const SILENCE_MS = 10_000;

async function within(timeoutMs: number, probe: () => boolean | Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (await probe()) return performance.now() - started;
    await delay(50);
  }
  throw new Error(`not within ${timeoutMs} ms`);
}

/** A new connection is closed by the port at once (true), or still open after 3 s (false). */
function closedAtOnce(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, 3_000);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function figure(text: string): void {
  process.stdout.write(`[figure] KAS failover: ${text}\n`);
}

describe('KAS on a primary kaspad and a backup, as a miner on the port sees their faults [pglite]', () => {
  let chain: KaspaDevChain;
  let backup: RunningKaspad;
  let primaryClient: KaspadClient;
  let backupClient: KaspadClient;
  let nodes: KaspadNodes;
  let source: KaspaTemplateSource;
  let database: TestDatabase;
  let writer: ShareWriter;
  let ports: FamilyPorts;
  let dataDir: string;
  let miner: KaspaTestMiner;
  let port: number;
  const frozen = new Set<number>();
  const signal = (pid: number, sig: 'SIGSTOP' | 'SIGCONT'): void => {
    process.kill(pid, sig);
    if (sig === 'SIGSTOP') frozen.add(pid);
    else frozen.delete(pid);
  };

  beforeAll(async () => {
    const installed = await ensureKaspad({ quiet: true });
    if (!installed.ok) throw new Error(installed.reason);
    chain = await startKaspaDevChain({ binaries: installed.binaries, logger, unfunded: true });
    backup = await chain.startPeer('backup');
    await chain.mine(5);
    const target = await chain.daaScore();
    await within(
      60_000,
      async () => BigInt((await backup.client.getBlockDagInfo()).virtualDaaScore) >= target,
    );
    primaryClient = new KaspadClient({ address: chain.rpcAddress, logger });
    backupClient = new KaspadClient({ address: backup.rpcAddress, logger });
    nodes = new KaspadNodes({
      coin: KAS,
      nodes: [primaryClient, backupClient],
      silenceMs: SILENCE_MS,
      logger,
    });
    source = new KaspaTemplateSource({ node: nodes, payAddress: chain.poolAddress, logger });
    await source.start();
    database = await openTestDatabase('pglite');
    dataDir = await mkdtemp(join(tmpdir(), 'manjam-kas-failover-'));
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
    port = ports.ports()[0]!.port;
    miner = await KaspaTestMiner.connect(port);
    await miner.request('mining.subscribe', ['lolMiner 1.88']);
    await miner.request('mining.authorize', [`${chain.poolAddress}.failover`, 'x']);
    await miner.jobCount(1);
  }, 300_000);

  afterAll(async () => {
    for (const pid of frozen) process.kill(pid, 'SIGCONT');
    miner?.close();
    await ports?.close();
    await writer?.stop();
    await source?.stop();
    nodes?.close();
    primaryClient?.close();
    backupClient?.close();
    await chain?.stop();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('keeps the miner mining on the backup while the primary is frozen, then takes the primary back', async () => {
    const [primaryPid, backupPid] = chain.nodeProcessIds();
    expect(nodes.inUse).toBe(primaryClient);
    signal(primaryPid!, 'SIGSTOP');
    const failover = await within(KAS_NODE_CALL_TIMEOUT_MS * 4, () => nodes.inUse === backupClient);
    // Past the silence limit the work goes on: the backup answers.
    await delay(SILENCE_MS + 1_000);
    expect(source.availability()?.up).toBe(true);
    expect(miner.closed).toBe(false);
    const job = miner.jobs.at(-1)!;
    const reply = await miner.submit(
      'failover',
      job,
      miner.find(job, (pow, share) => pow <= share),
    );
    expect(reply.result).toBe(true);
    const started = performance.now();
    await nodes.getBlockTemplate(chain.poolAddress, 'manjam-test');
    const templateMs = performance.now() - started;
    expect(templateMs).toBeLessThan(KAS_NODE_CALL_TIMEOUT_MS);
    signal(primaryPid!, 'SIGCONT');
    // A probe every FAILBACK_PROBE_MS; a resumed kaspad on a loaded machine may miss a few (3 s
    // each): the fresh-clone run under the whole suite's load missed three (30 s), a quiet one takes 6 s.
    const failback = await within(FAILBACK_PROBE_MS * 6, () => nodes.inUse === primaryClient);
    figure(
      `primary frozen -> backup in use after ${(failover / 1000).toFixed(1)} s; a template through the set ` +
        `${templateMs.toFixed(0)} ms; miner connected past the ${SILENCE_MS / 1000} s limit: yes; ` +
        `primary back in use ${(failback / 1000).toFixed(1)} s after it answered again (backup pid ${backupPid})`,
    );
  }, 180_000);

  it('sends the miner away when no node answers past the limit, refuses newcomers, and takes them back once a node answers', async () => {
    // From a working pool whatever the test before left: both nodes answering, a miner mining.
    for (const pid of [...frozen]) signal(pid, 'SIGCONT');
    await within(30_000, () => source.current !== undefined);
    const mining = await KaspaTestMiner.connect(port);
    await mining.request('mining.subscribe', ['lolMiner 1.88']);
    await mining.request('mining.authorize', [`${chain.poolAddress}.away`, 'x']);
    await mining.jobCount(1);
    const pids = chain.nodeProcessIds().slice(0, 2);
    for (const pid of pids) signal(pid, 'SIGSTOP');
    const frozenAt = performance.now();
    await within(SILENCE_MS + 10_000, () => mining.closed);
    const sentAway = performance.now() - frozenAt;
    expect(source.current).toBeUndefined();
    expect(source.availability()?.up).toBe(false);
    expect(await closedAtOnce(port)).toBe(true);
    for (const pid of pids) signal(pid, 'SIGCONT');
    const thawedAt = performance.now();
    await within(20_000, () => source.current !== undefined);
    const resumed = performance.now() - thawedAt;
    const fresh = await KaspaTestMiner.connect(port);
    try {
      await fresh.request('mining.subscribe', ['lolMiner 1.88']);
      await fresh.request('mining.authorize', [`${chain.poolAddress}.back`, 'x']);
      const job = await fresh.jobCount(1);
      const reply = await fresh.submit(
        'back',
        job,
        fresh.find(job, (pow, share) => pow <= share),
      );
      expect(reply.result).toBe(true);
    } finally {
      fresh.close();
    }
    figure(
      `both nodes frozen -> miner sent away after ${(sentAway / 1000).toFixed(1)} s (limit ${SILENCE_MS / 1000} s), ` +
        `a newcomer refused; nodes back -> work again after ${(resumed / 1000).toFixed(1)} s, a share accepted`,
    );
  }, 120_000);
});
