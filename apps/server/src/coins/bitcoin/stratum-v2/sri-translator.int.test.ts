// SRI's translator (translator_sv2 0.6.0, `cargo install translator_sv2 --version 0.6.0`) between a
// V1 miner (the project's test client) and the pool's V2 port: the translator checks the pool's
// certificate against the authority key from <dataDir>, opens its channel, and the V1 miner's
// shares reach the pool and are stored. The binary comes from scripts/sri.mjs (npm test installs
// it with cargo; MANJAM_SRI_TRANSLATOR points at one installed elsewhere); without cargo the test
// fails with the installer's words.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { schnorr } from '@noble/curves/secp256k1.js';
import { decodeAuthoritySecretKey, encodeAuthorityPublicKey } from '@manjam/protocol/sv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBtcDevChain, type DevChain } from '../devchain/index.js';
import type { StratumTestClient } from '../../../../test/support/coins/bitcoin/stratum/client.js';
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
    chain = await startBtcDevChain({ logger: testLogger });
    pool = await startPoolOnChain({
      coin: 'BTC',
      chain,
      ports: [{ start: 3e-10, protocol: 'v2' }],
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
      expect(pool.stratum.stats().v2).toMatchObject({ connections: 1, channels: 1 });
    } finally {
      await client.close();
    }
  });

  it('is refused by a translator configured with another authority key: no channel opens, no share reaches the pool', async () => {
    const wrong = encodeAuthorityPublicKey(schnorr.getPublicKey(schnorr.utils.randomSecretKey()));
    const before = pool.stratum.stats().v2.channels;
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
      expect(pool.stratum.stats().v2.channels).toBeLessThanOrEqual(before);
    } finally {
      impostor.stop();
    }
  });
});
