// Test support: SRI's translator (translator_sv2 0.6.0, installed by scripts/sri.mjs) in front of a
// pool's V2 port, with the project's V1 test client as its miner. What the translator was told by
// the pool is read from its own log: each `SubmitSharesSuccess` it received (new_submits_accepted_count).
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StratumTestClient } from '../stratum/client.js';
import { freePort } from '../../../../../src/devchain/child.js';

export interface TranslatorOptions {
  /** The translator binary (ensureTranslator's `binary`). */
  binary: string;
  /** Where its config file is written. */
  dir: string;
  upstreamPort: number;
  /** The pool's authority public key, base58check. */
  authority: string;
  /** The channel's user identity (`address.worker`). */
  user: string;
  /**
   * The hashrate the translator assumes per V1 miner and the shares a minute it wants: they set the
   * V1 difficulty (hashrate x 60 / sharesPerMinute / 2^32) and the channel's nominal hashrate.
   */
  minerHashrate?: number;
  sharesPerMinute?: number;
  /**
   * SRI's own local-pool example config (tproxy-config-local-pool-example.toml in each network folder of config-examples)
   * as shipped: one aggregated upstream channel, the translator's vardiff on at 6 shares a minute,
   * the worker-hashrate extension offered; only addresses, key, user and minerHashrate differ.
   */
  example?: boolean;
}

export interface Translator {
  process: ChildProcess;
  downstreamPort: number;
  output(): string;
  /** The shares the pool told the translator it accepted (sum of SubmitSharesSuccess counts in its log). */
  acknowledged(): number;
  /** A V1 miner connected to the translator's downstream port (retried until it listens). */
  connectMiner(): Promise<StratumTestClient>;
  stop(): void;
}

/**
 * By default non-aggregated (one upstream channel per V1 miner: the pool's extranonce size is the
 * miner's extranonce2 size) with the translator's own vardiff off, so its V1 difficulty stays as
 * set; `example` writes SRI's example settings instead.
 */
function configText(o: TranslatorOptions, downstreamPort: number): string {
  const example = o.example === true;
  return `downstream_address = "127.0.0.1"
downstream_port = ${downstreamPort}
max_supported_version = 2
min_supported_version = 2
downstream_extranonce2_size = 4
aggregate_channels = ${example}
supported_extensions = [${example ? '0x0002' : ''}]

[downstream_difficulty_config]
min_individual_miner_hashrate = ${(o.minerHashrate ?? 10).toFixed(6)}
shares_per_minute = ${(o.sharesPerMinute ?? (example ? 6 : 1)).toFixed(1)}
enable_vardiff = ${example}
job_keepalive_interval_secs = 60

[[upstreams]]
address = "127.0.0.1"
port = ${o.upstreamPort}
authority_pubkey = "${o.authority}"
user_identity = "${o.user}"
`;
}

const SUCCESS = /Received: SubmitSharesSuccess\([^)]*new_submits_accepted_count=(\d+)/g;

export async function startTranslator(options: TranslatorOptions): Promise<Translator> {
  const downstreamPort = await freePort();
  const file = join(options.dir, `tproxy-${downstreamPort}.toml`);
  await writeFile(file, configText(options, downstreamPort));
  const child = spawn(options.binary, ['-c', file], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RUST_LOG: process.env.SRI_LOG ?? 'info' },
  });
  let text = '';
  child.stdout?.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (text += d.toString()));
  return {
    process: child,
    downstreamPort,
    output: () => text,
    acknowledged: () => [...text.matchAll(SUCCESS)].reduce((n, m) => n + Number(m[1]), 0),
    connectMiner: async () => {
      for (let i = 0; i < 100; i++) {
        const client = await StratumTestClient.connect(downstreamPort).catch(() => undefined);
        if (client) return client;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`the translator never listened:\n${text}`);
    },
    stop: () => {
      child.kill('SIGKILL');
    },
  };
}
