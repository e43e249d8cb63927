// SRI's translator (translator_sv2 0.6.0, `cargo install translator_sv2 --version 0.6.0`) between a
// V1 miner (the project's test client) and the pool's V2 port: the translator checks the pool's
// certificate against the authority key from <dataDir>, opens its channel, and the V1 miner's
// shares reach the pool and are stored. The binary comes from scripts/sri.mjs (npm test installs
// it with cargo; MANJAM_SRI_TRANSLATOR points at one installed elsewhere); without cargo the test
// fails with the installer's words.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { schnorr } from '@noble/curves/secp256k1.js';
import { bitsToTarget } from '@manjam/protocol';
import { decodeAuthoritySecretKey, encodeAuthorityPublicKey } from '@manjam/protocol/sv2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DevChain } from '../devchain/index.js';
import { startBtcTestChain } from '../../../../test/support/devchain/snapshot.js';
import { PayeesRepository } from '../../../db/repositories/payees.js';
import { SharesRepository } from '../../../db/repositories/shares.js';
import { WorkersRepository } from '../../../db/repositories/workers.js';
import type { StratumTestClient } from '../../../../test/support/coins/bitcoin/stratum/client.js';
import { v2Figures } from '../../../../test/support/coins/bitcoin/stratum-v2/figures.js';
import {
  startPoolOnChain,
  testLogger,
  type PoolOnChain,
} from '../../../../test/support/coins/bitcoin/stratum/harness.js';
import { ensureTranslator } from '../../../../../../scripts/sri.mjs';
import { AUTHORITY_KEY_FILE } from './authority.js';
import {
  startTranslator,
  type Translator,
} from '../../../../test/support/coins/bitcoin/stratum-v2/translator.js';

describe('SRI translator -> Manjam Stratum V2', () => {
  let chain: DevChain;
  let pool: PoolOnChain;
  let translator: Translator;
  let binary = '';
  let authority = '';

  beforeAll(async () => {
    const installed = await ensureTranslator({ quiet: true });
    if (!installed.ok) throw new Error(installed.reason);
    binary = installed.binary;
    chain = await startBtcTestChain({ logger: testLogger });
    pool = await startPoolOnChain({
      coin: 'BTC',
      chain,
      ports: [{ start: 3e-10, protocol: 'v2' }],
      // Room for an aggregating translator's extranonce: its miners' 4 bytes and 2 of its own.
      stratum: { extranonce2Size: 8 },
    });
    const secret = decodeAuthoritySecretKey(await readFile(join(pool.dataDir, AUTHORITY_KEY_FILE), 'utf8'));
    authority = encodeAuthorityPublicKey(schnorr.getPublicKey(secret as Uint8Array));
    translator = await startTranslator({
      binary,
      dir: pool.dataDir,
      upstreamPort: pool.ports[0] as number,
      authority,
      user: `${chain.poolAddress}.sri`,
    });
  }, 120_000);
  afterAll(async () => {
    translator?.stop();
    if (process.env.SRI_DUMP) process.stdout.write(translator?.output() ?? '');
    await pool?.close();
    await chain?.stop();
  });

  it('carries a V1 miner share through the translator to the pool, which accepts it and makes its block the tip', async () => {
    const client: StratumTestClient = await translator.connectMiner();
    const output = translator.output();
    try {
      expect((await client.subscribe()).error).toBeNull();
      expect((await client.authorize(`${chain.poolAddress}.rig`)).result).toBe(true);
      const job = await client.waitForJob();
      const accepted = pool.stratum.stats().sharesAccepted;
      // The translator's downstream difficulty is above regtest's network difficulty: a share
      // it forwards is a block too, and the pool submits it to bcoin.
      const share = client.findShare(job, 'sha256d');
      const reply = await client.submit(`${chain.poolAddress}.rig`, share);
      expect(reply.error, output).toBeNull();
      for (let i = 0; i < 100 && pool.stratum.stats().sharesAccepted < accepted + 1; i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(pool.stratum.stats().sharesAccepted, output).toBe(accepted + 1);
      const hash = share.built.hash.toString('hex').match(/../g)?.reverse().join('');
      let best = '';
      for (let i = 0; i < 100 && best !== hash; i++) {
        best = await pool.node.getBestBlockHash();
        if (best !== hash) await new Promise((r) => setTimeout(r, 100));
      }
      expect(best).toBe(hash);
      expect(v2Figures(pool.stratum)).toMatchObject({ connections: 1, channels: 1 });
    } finally {
      await client.close();
    }
  });

  it("credits every share SRI's example config tells its V1 miner was accepted, through the translator's own vardiff", async () => {
    const seconds = 120;
    // SRI's example settings (aggregated channel, vardiff on at 6 shares a minute), with the
    // weakest-miner hashrate set to what this JavaScript miner does (about 2.3e-6 to start).
    const example = await startTranslator({
      binary,
      dir: pool.dataDir,
      upstreamPort: pool.ports[0] as number,
      authority,
      user: `${chain.poolAddress}.sridefault`,
      minerHashrate: 1_000,
      example: true,
    });
    const payeeId = await new PayeesRepository(pool.db).ensureWallet('BTC', chain.poolAddress);
    const stored = async (): Promise<number> => {
      let n = 0;
      for (const w of await new WorkersRepository(pool.db).listByPayee(payeeId))
        n += await new SharesRepository(pool.db).countForWorker(w.id);
      return n;
    };
    const storedBefore = await stored();
    const rejectedBefore = { ...pool.stratum.stats().sharesRejected };
    const client: StratumTestClient = await example.connectMiner();
    let accepted = 0;
    let refused = 0;
    const difficulties = new Set<number>();
    try {
      expect((await client.subscribe()).error).toBeNull();
      expect((await client.authorize(`${chain.poolAddress}.rig`)).result).toBe(true);
      await client.waitForJob();
      const end = Date.now() + seconds * 1000;
      while (Date.now() < end) {
        const job = client.job;
        if (!job) throw new Error('no job');
        difficulties.add(job.difficulty);
        const share = client.findShare(job, 'sha256d', { maxNonces: 50_000_000 });
        const sent = Date.now();
        const reply = await client.submit(`${chain.poolAddress}.rig`, share);
        if (reply.result === true && reply.error === null) accepted++;
        else refused++;
        // Most shares on regtest are blocks too: mine on the new tip's job, as a miner does.
        if (share.built.hashValue <= bitsToTarget(String(job.params[6])))
          await client.waitForJob((j) => j.receivedMs >= sent && j.clean, 10_000).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 500));
      }
      const output = example.output();
      await vi.waitFor(async () => expect(await stored()).toBe(storedBefore + accepted), {
        timeout: 10_000,
        interval: 200,
      });
      expect(accepted, output).toBeGreaterThan(0);
      expect(output).not.toContain('difficulty-too-low');
      expect(pool.stratum.stats().sharesRejected).toEqual(rejectedBefore);
      expect({ refused, acknowledged: example.acknowledged() }).toEqual({
        refused: 0,
        acknowledged: accepted,
      });
      process.stdout.write(
        `translator example config: ${accepted} accepted, ${refused} refused, V1 difficulties ${[...difficulties].join(', ')}\n`,
      );
    } finally {
      await client.close();
      example.stop();
      if (process.env.SRI_DUMP) process.stdout.write(example.output());
    }
  }, 240_000);

  it('is refused by a translator configured with another authority key: no channel opens, no share reaches the pool', async () => {
    const wrong = encodeAuthorityPublicKey(schnorr.getPublicKey(schnorr.utils.randomSecretKey()));
    const before = v2Figures(pool.stratum).channels;
    const impostor = await startTranslator({
      binary,
      dir: pool.dataDir,
      upstreamPort: pool.ports[0] as number,
      authority: wrong,
      user: `${chain.poolAddress}.wrongkey`,
    });
    try {
      // The translator checks the pool's certificate in the handshake's second act and gives up.
      for (let i = 0; i < 100 && !/Invalid Certificate/.test(impostor.output()); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(impostor.output()).toContain('Failed Noise handshake');
      expect(impostor.output()).toContain('Invalid Certificate');
      expect(impostor.output()).not.toContain('SetupConnectionSuccess');
      expect(impostor.output()).not.toContain('OpenExtendedMiningChannelSuccess');
      expect(v2Figures(pool.stratum).channels).toBeLessThanOrEqual(before);
    } finally {
      impostor.stop();
    }
  });
});
