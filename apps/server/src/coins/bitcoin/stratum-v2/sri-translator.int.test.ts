// SRI's translator (translator_sv2 0.6.0, `cargo install translator_sv2 --version 0.6.0`) between a
// V1 miner (the project's test client) and the pool's V2 port: the translator checks the pool's
// certificate against the authority key from <dataDir>, opens its channel, and the V1 miner's
// shares reach the pool and are stored. The binary comes from scripts/sri.mjs (npm test installs
// it with cargo; MANJAM_SRI_TRANSLATOR points at one installed elsewhere); without cargo the test
// fails with the installer's words.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { schnorr } from '@noble/curves/secp256k1.js';
import { decodeAuthoritySecretKey, encodeAuthorityPublicKey } from '@manjam/protocol/sv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBtcDevChain, type DevChain } from '../devchain/index.js';
import { StratumTestClient } from '../../../../test/support/coins/bitcoin/stratum/client.js';
import {
  startPoolOnChain,
  testLogger,
  type PoolOnChain,
} from '../../../../test/support/coins/bitcoin/stratum/harness.js';
import { ensureTranslator } from '../../../../../../scripts/sri.mjs';
import { freePort } from '../../../devchain/child.js';
import { AUTHORITY_KEY_FILE } from './authority.js';

/**
 * Non-aggregated (one upstream channel per V1 miner: the pool's extranonce size is the miner's
 * extranonce2 size). The translator's own vardiff is off and its downstream difficulty
 * (10 H/s at one share a minute) is above the pool's channel difficulty for the 10 H/s it
 * announces (a share each 15 s), so every share it forwards meets the channel's target.
 */
function translatorConfig(port: number, downstreamPort: number, authority: string, user: string): string {
  return `downstream_address = "127.0.0.1"
downstream_port = ${downstreamPort}
max_supported_version = 2
min_supported_version = 2
downstream_extranonce2_size = 4
aggregate_channels = false
supported_extensions = []

[downstream_difficulty_config]
min_individual_miner_hashrate = 10.0
shares_per_minute = 1.0
enable_vardiff = false
job_keepalive_interval_secs = 60

[[upstreams]]
address = "127.0.0.1"
port = ${port}
authority_pubkey = "${authority}"
user_identity = "${user}"
`;
}

describe('SRI translator -> Manjam Stratum V2', () => {
  let chain: DevChain;
  let pool: PoolOnChain;
  let translator: ChildProcess;
  let output = '';
  let downstreamPort = 0;

  beforeAll(async () => {
    const installed = await ensureTranslator({ quiet: true });
    if (!installed.ok) throw new Error(installed.reason);
    chain = await startBtcDevChain({ logger: testLogger });
    pool = await startPoolOnChain({
      coin: 'BTC',
      chain,
      ports: [{ start: 3e-10, protocol: 'v2' }],
    });
    const secret = decodeAuthoritySecretKey(await readFile(join(pool.dataDir, AUTHORITY_KEY_FILE), 'utf8'));
    const authority = encodeAuthorityPublicKey(schnorr.getPublicKey(secret as Uint8Array));
    const file = join(pool.dataDir, 'tproxy.toml');
    downstreamPort = await freePort();
    await writeFile(
      file,
      translatorConfig(pool.ports[0] as number, downstreamPort, authority, `${chain.poolAddress}.sri`),
    );
    translator = spawn(installed.binary, ['-c', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, RUST_LOG: process.env.SRI_LOG ?? 'info' },
    });
    translator.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    translator.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  }, 120_000);
  afterAll(async () => {
    translator?.kill('SIGKILL');
    if (process.env.SRI_DUMP) process.stdout.write(output);
    await pool?.close();
    await chain?.stop();
  });

  it('carries a V1 miner share through the translator to the pool, which accepts it and makes its block the tip', async () => {
    let client: StratumTestClient | undefined;
    for (let i = 0; i < 100 && !client; i++) {
      client = await StratumTestClient.connect(downstreamPort).catch(() => undefined);
      if (!client) await new Promise((r) => setTimeout(r, 200));
    }
    if (!client) throw new Error(`translator never listened:\n${output}`);
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
});
