// One slow chain does not stop the others. The pool starts with the Monero dev chain's wallet
// blocked (monero-wallet-rpc replaced, at its first start, by a process that runs and never
// answers): the pool comes up with BTC mining and XMR reported down with its reason; the wallet
// answers from its next start on, and XMR comes up on the pool's retry and its port opens, without
// a restart.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPool, type TestPool } from '../../../../e2e/support/pool.js';
import { waitUntil } from '../../test/support/processes.js';
import { MONERO_WALLET_RPC_PATH } from './monero/devchain.js';

type Health = { chains: { coin: string; ok: boolean; error?: string }[] };

const dir = mkdtempSync(join(tmpdir(), 'manjam-late-'));
const firstStart = join(dir, 'first-start');
let pool: TestPool;
let startedInSeconds = 0;

/** The first line a Stratum V1 port answers to mining.subscribe. */
function subscribe(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      socket.write('{"id":1,"method":"mining.subscribe","params":["late-chain-test"]}\n');
    });
    let text = '';
    socket.setTimeout(10_000, () => reject(new Error('no answer to mining.subscribe')));
    socket.on('data', (chunk) => {
      text += chunk.toString();
      const end = text.indexOf('\n');
      if (end >= 0) {
        socket.destroy();
        resolve(text.slice(0, end));
      }
    });
    socket.once('error', reject);
  });
}

beforeAll(async () => {
  // The first start (mkdir succeeds once): a process that runs and never listens. Then the real wallet.
  const wallet = join(dir, 'monero-wallet-rpc');
  writeFileSync(
    wallet,
    `#!/bin/sh\nif mkdir '${firstStart}' 2>/dev/null; then exec sleep 3600; fi\nexec '${MONERO_WALLET_RPC_PATH}' "$@"\n`,
  );
  chmodSync(wallet, 0o755);
  process.env.MANJAM_MONERO_WALLET_RPC = wallet;
  const started = performance.now();
  pool = await startTestPool({ coins: ['XMR'] });
  startedInSeconds = (performance.now() - started) / 1000;
}, 300_000);

afterAll(async () => {
  await pool?.stop();
});

describe('a chain whose wallet does not answer at start', () => {
  it('lets the pool start with the other coins mining and reports the blocked coin down with its reason', async () => {
    process.stdout.write(`[figure] pool started without XMR in ${startedInSeconds.toFixed(1)} s\n`);
    expect(pool.randomxPort).toBeUndefined();
    expect(await subscribe(pool.stratumPort)).toContain('"error":null');
    const answer = await fetch(`${pool.baseUrl}/api/health`);
    const { chains } = (await answer.json()) as Health;
    expect(chains.find((c) => c.coin === 'BTC')).toMatchObject({ ok: true });
    const xmr = chains.find((c) => c.coin === 'XMR');
    expect(xmr?.ok).toBe(false);
    expect(xmr?.error).toMatch(/^not started: monero-wallet-rpc RPC not ready within \d+ ms.*; retrying$/);
  });

  it('brings the coin up and opens its port once the wallet answers, without a restart', async () => {
    const seconds = await waitUntil(
      () => (pool.pool.stratum?.ports() ?? []).some((p) => p.coin === 'XMR'),
      240_000,
      'the XMR port opened',
    );
    process.stdout.write(`[figure] XMR up ${seconds.toFixed(1)} s after the pool started without it\n`);
    const port = pool.pool.stratum?.ports().find((p) => p.coin === 'XMR')?.port ?? 0;
    const login = await new Promise<string>((resolve, reject) => {
      const socket = connect({ port, host: '127.0.0.1' }, () => {
        socket.write('{"id":1,"jsonrpc":"2.0","method":"login","params":{"login":"nobody","pass":"x"}}\n');
      });
      socket.setTimeout(10_000, () => reject(new Error('no answer to login')));
      socket.once('data', (chunk) => {
        socket.destroy();
        resolve(chunk.toString());
      });
      socket.once('error', reject);
    });
    expect(login).toContain('"id":1');
    const health = (await (await fetch(`${pool.baseUrl}/api/health`)).json()) as Health;
    expect(health.chains.find((c) => c.coin === 'XMR')).toMatchObject({ ok: true });
  }, 270_000);
});
