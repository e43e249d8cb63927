// kill -9 of the pool under V2 load: a `manjam start --role stratum` process with a V2 port on the
// BTC dev chain and PostgreSQL; a V2 miner keeps shares in flight on an extended channel and sums
// what SubmitShares.Success told it; the process is killed with SIGKILL mid-stream and started
// again on the same data dir (its journal, its authority key). Every share the miner was told
// succeeded must be in the database: the figure is printed (acknowledged vs stored, time to
// accept V2 connections again). Then the same with SRI's translator in front (a V1 miner behind
// it): every share the pool told the translator it accepted (its log) must be stored.
import { readFile } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schnorr } from '@noble/curves/secp256k1.js';
import { bitsToTarget } from '@manjam/protocol';
import { decodeAuthoritySecretKey } from '@manjam/protocol/sv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL, openTestDatabase, type TestDatabase } from '../../../../test/support/db.js';
import { testLogger } from '../../../../test/support/coins/bitcoin/stratum/harness.js';
import {
  processConfig,
  schemaUrl,
  startPoolProcess,
  type PoolProcess,
} from '../../../../test/support/pool-processes.js';
import { PayeesRepository } from '../../../db/repositories/payees.js';
import { SharesRepository } from '../../../db/repositories/shares.js';
import { WorkersRepository } from '../../../db/repositories/workers.js';
import { freePort } from '../../../devchain/child.js';
import { type DevChain } from '../devchain/index.js';
import { startBtcTestChain } from '../../../../test/support/devchain/snapshot.js';
import { difficultyToTarget } from '@manjam/protocol';
import { encodeAuthorityPublicKey } from '@manjam/protocol/sv2';
import { ensureTranslator } from '../../../../../../scripts/sri.mjs';
import { AUTHORITY_KEY_FILE } from './authority.js';
import {
  findNonce,
  Sv2TestClient,
  type ChannelWork,
} from '../../../../test/support/coins/bitcoin/stratum-v2/client.js';
import { startTranslator } from '../../../../test/support/coins/bitcoin/stratum-v2/translator.js';
import { u256ToTarget } from './work.js';

/** Share difficulty above regtest's network difficulty: shares that are not blocks are picked. */
const DIFFICULTY = 3e-10;
const IN_FLIGHT = 16;
const LOAD_MS = 2_500;
const WORKER = 'v2kill';

describe('kill -9 of the pool under Stratum V2 load', () => {
  let dev: DevChain;
  let database: TestDatabase;
  let config: Record<string, unknown>;
  let pool: PoolProcess | undefined;
  let port = 0;
  let dataDir = '';

  beforeAll(async () => {
    dev = await startBtcTestChain({ logger: testLogger });
    database = await openTestDatabase('postgres');
    dataDir = mkdtempSync(join(tmpdir(), 'manjam-v2-kill-'));
    port = await freePort();
    const base = processConfig({
      databaseUrl: schemaUrl(TEST_DATABASE_URL, database.schema ?? ''),
      node: dev,
      difficulty: DIFFICULTY,
      dataDir,
    });
    const vardiff = { start: DIFFICULTY, min: DIFFICULTY, max: DIFFICULTY, retargetSeconds: 86_400 };
    config = {
      ...base,
      stratum: {
        ...(base.stratum as Record<string, unknown>),
        ports: [{ port, coin: 'BTC', vardiff, protocol: 'v2' }],
      },
    };
    pool = await startPoolProcess('stratum', config);
  }, 300_000);

  afterAll(async () => {
    pool?.child.kill('SIGTERM');
    await pool?.exited;
    await database?.drop();
    await dev?.stop();
  });

  /** Shares stored for the workers whose name starts with `prefix` (the translator adds `.minerN`). */
  async function storedShares(prefix = WORKER): Promise<number> {
    const payeeId = await new PayeesRepository(database.db).ensureWallet('BTC', dev.poolAddress);
    const workers = (await new WorkersRepository(database.db).listByPayee(payeeId)).filter((w) =>
      w.name.startsWith(prefix),
    );
    const shares = new SharesRepository(database.db);
    let n = 0;
    for (const w of workers) n += await shares.countForWorker(w.id);
    return n;
  }

  async function authorityKey(): Promise<Uint8Array> {
    const secret = decodeAuthoritySecretKey(await readFile(join(dataDir, AUTHORITY_KEY_FILE), 'utf8'));
    return schnorr.getPublicKey(secret as Uint8Array);
  }

  it('has every share the miner was told succeeded in the database after the restart', async () => {
    const authority = await authorityKey();
    const client = await Sv2TestClient.connect(port, authority);
    expect((await client.setup()).type).toBe('SetupConnectionSuccess');
    const opened = await client.open('extended', `${dev.poolAddress}.${WORKER}`);
    if (!opened.ok) throw new Error(`open refused: ${opened.errorCode}`);
    const work: ChannelWork = await opened.work;
    const shareTarget = u256ToTarget(opened.target);
    const networkTarget = bitsToTarget(work.prevHash.nbits.toString(16).padStart(8, '0'));
    const extranonce = Buffer.alloc(opened.extranonceSize, 3);
    const parts = { extranoncePrefix: opened.extranoncePrefix, extranonce };

    let acknowledged = 0;
    let sent = 0;
    let nonce = 0;
    const countSuccess = (): void => {
      for (const m of client.messages.splice(0)) {
        if (m.type === 'SubmitSharesSuccess') acknowledged += m.newSubmitsAcceptedCount;
      }
    };
    const submitOne = (): void => {
      const found = findNonce(work, parts, (h) => h <= shareTarget && h > networkTarget, nonce);
      nonce = found.nonce + 1;
      sent++;
      client.send({
        type: 'SubmitSharesExtended',
        channelId: opened.channelId,
        sequenceNumber: sent,
        jobId: work.job.jobId,
        nonce: found.nonce,
        ntime: found.ntime,
        version: found.version,
        extranonce,
      });
    };
    const started = performance.now();
    while (performance.now() - started < LOAD_MS && !client.closed) {
      countSuccess();
      // Successes are batched: keep about IN_FLIGHT submits beyond what was acknowledged.
      while (sent - acknowledged < IN_FLIGHT) submitOne();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const killedAt = performance.now();
    pool?.child.kill('SIGKILL');
    await pool?.exited;
    // Answers already on the wire before the kill still count: read what arrived.
    await new Promise((resolve) => setTimeout(resolve, 200));
    countSuccess();
    client.close();
    expect(acknowledged).toBeGreaterThan(100);

    pool = await startPoolProcess('stratum', config);
    const back = await Sv2TestClient.connect(port, authority);
    const resumedMs = performance.now() - killedAt;
    back.close();
    let stored = await storedShares();
    for (let i = 0; i < 100 && stored < acknowledged; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stored = await storedShares();
    }
    process.stdout.write(
      `[figure] V2 kill -9: ${sent} submitted, acknowledged ${acknowledged}, stored ${stored} after the restart ` +
        `(lost ${Math.max(0, acknowledged - stored)}); V2 handshakes answered again ${(resumedMs / 1000).toFixed(1)} s after the kill\n`,
    );
    expect(stored).toBeGreaterThanOrEqual(acknowledged);
  }, 180_000);

  it("has every share SRI's translator was told succeeded in the database after a kill -9 behind it", async () => {
    const installed = await ensureTranslator({ quiet: true });
    if (!installed.ok) throw new Error(installed.reason);
    const translator = await startTranslator({
      binary: installed.binary,
      dir: dataDir,
      upstreamPort: port,
      authority: encodeAuthorityPublicKey(await authorityKey()),
      user: `${dev.poolAddress}.sritk`,
      // A V1 difficulty far below the channel's: the miner picks the shares the pool takes.
      minerHashrate: 0.01,
      sharesPerMinute: 60,
    });
    try {
      const miner = await translator.connectMiner();
      expect((await miner.subscribe()).error).toBeNull();
      expect((await miner.authorize(`${dev.poolAddress}.sritk`)).result).toBe(true);
      const job = await miner.waitForJob();
      const channelTarget = difficultyToTarget(DIFFICULTY, 'sha256d');
      const accept = (b: { hashValue: bigint }) =>
        b.hashValue <= channelTarget && b.hashValue > job.template.networkTarget;
      let sent = 0;
      let answered = 0;
      const started = performance.now();
      while (performance.now() - started < LOAD_MS) {
        while (sent - answered < IN_FLIGHT) {
          sent++;
          void miner
            .submit(`${dev.poolAddress}.sritk`, miner.findShare(job, 'sha256d', { accept }))
            .finally(() => answered++);
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      const killedAt = performance.now();
      pool?.child.kill('SIGKILL');
      await pool?.exited;
      // Successes already on the wire before the kill still count: let the translator log them.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const acknowledged = translator.acknowledged();
      await miner.close();
      expect(acknowledged).toBeGreaterThan(50);

      pool = await startPoolProcess('stratum', config);
      const restartedMs = performance.now() - killedAt;
      let stored = await storedShares('sritk');
      for (let i = 0; i < 100 && stored < acknowledged; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        stored = await storedShares('sritk');
      }
      process.stdout.write(
        `[figure] V2 kill -9 behind SRI's translator: the V1 miner sent ${sent}, the pool told the translator ` +
          `${acknowledged} succeeded, stored ${stored} after the restart (lost ${Math.max(0, acknowledged - stored)}); ` +
          `pool back ${(restartedMs / 1000).toFixed(1)} s after the kill\n`,
      );
      expect(stored).toBeGreaterThanOrEqual(acknowledged);
    } finally {
      translator.stop();
    }
  }, 180_000);
});
