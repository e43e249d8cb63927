// kill -9 of the pool under V2 load: a `manjam start --role stratum` process with a V2 port on the
// BTC dev chain and PostgreSQL; a V2 miner keeps shares in flight on an extended channel and sums
// what SubmitShares.Success told it; the process is killed with SIGKILL mid-stream and started
// again on the same data dir (its journal, its authority key). Every share the miner was told
// succeeded must be in the database: the figure is printed (acknowledged vs stored, time to
// accept V2 connections again).
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
import { startBtcDevChain, type DevChain } from '../devchain/index.js';
import { AUTHORITY_KEY_FILE } from './authority.js';
import { findNonce, Sv2TestClient, type ChannelWork } from './testing/client.js';
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
    dev = await startBtcDevChain({ logger: testLogger });
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

  async function storedShares(): Promise<number> {
    const payeeId = await new PayeesRepository(database.db).ensureWallet('BTC', dev.poolAddress);
    const worker = (await new WorkersRepository(database.db).listByPayee(payeeId)).find(
      (w) => w.name === WORKER,
    );
    return worker ? new SharesRepository(database.db).countForWorker(worker.id) : 0;
  }

  it('has every share the miner was told succeeded in the database after the restart', async () => {
    const secret = decodeAuthoritySecretKey(await readFile(join(dataDir, AUTHORITY_KEY_FILE), 'utf8'));
    const authority = schnorr.getPublicKey(secret as Uint8Array);
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
});
