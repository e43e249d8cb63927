// `npm run drill:figures`: are the figures a miner reads true from the first second? A whole pool
// in this process (the browser tests' pool: PGlite, a bcoin regtest chain, the SHA-256d port, the
// built web app's API) and one real miner hashing SHA-256d in JavaScript (the project's Stratum
// test client, every nonce a real double SHA-256). It prints:
// 1. a worker minutes old: the rate it really hashed (nonces tried / seconds), the rate its
//    accepted shares imply (difficulty x 2^32 / seconds), and what /api/workers shows for it, with
//    the span it says it averaged over (the issue measured 7-9x low on main 844ed21);
// 2. after a quiet spell longer than any figure cache: one more share, then reads of /api/workers
//    until its lastSeen reaches that share: how long after its acceptance the figures hold it
//    (main served the previous snapshot: lastSeen 90 s old after a 90 s gap).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { WorkerList } from '@manjam/contract';
import { expectedHashesPerShare } from '@manjam/protocol';
import { StratumTestClient } from '../apps/server/test/support/coins/bitcoin/stratum/client.js';
import { api, registerAndLogin } from '../e2e/support/api.js';
import { startTestPool } from '../e2e/support/pool.js';
import { Report, fixed, load } from './lib/report.js';

const RESULTS = fileURLToPath(new URL('results', import.meta.url));
const { values } = parseArgs({
  options: {
    'mine-seconds': { type: 'string', default: '120' },
    'quiet-seconds': { type: 'string', default: '75' },
  },
});
const mineSeconds = Number(values['mine-seconds']);
const quietSeconds = Number(values['quiet-seconds']);
const report = new Report(join(RESULTS, `figures-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Mines on `client` until `untilMs`; answers hashes tried and the difficulty of the shares accepted. */
async function mine(
  client: StratumTestClient,
  login: string,
  untilMs: number,
  atLeastShares = 0,
): Promise<{
  hashes: number;
  acceptedHashes: number;
  acceptedDifficulty: number;
  accepted: number;
  lastAcceptedMs: number;
}> {
  let hashes = 0;
  let acceptedHashes = 0;
  let acceptedDifficulty = 0;
  let accepted = 0;
  let lastAcceptedMs = 0;
  while (Date.now() < untilMs || accepted < atLeastShares) {
    const job = client.job ?? (await client.waitForJob());
    const share = client.findShare(job, 'sha256d', { maxNonces: 50_000_000 });
    const tried = parseInt(share.nonce, 16) + 1;
    hashes += tried;
    const reply = await client.submit(login, share);
    if (reply.result === true && reply.error === null) {
      accepted += 1;
      acceptedHashes += tried;
      acceptedDifficulty += job.difficulty;
      lastAcceptedMs = Date.now();
    } else if (reply.error?.[0] === 21) {
      // Stale: on regtest nearly every share is a block; take the new tip's job.
      await client.waitForJob((j) => j !== job && j.clean, 10_000).catch(() => undefined);
    }
    // Let the pool's own event loop (same process) answer between shares, as a remote miner would.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { hashes, acceptedHashes, acceptedDifficulty, accepted, lastAcceptedMs };
}

const pool = await startTestPool();
try {
  report.line(`drill figures, ${new Date().toISOString()}, load ${load()}`);
  const session = await registerAndLogin(pool.baseUrl, 'figures', 'en');
  const login = `${session.user.username}.cpu1`;
  const client = await StratumTestClient.connect(pool.stratumPort, { host: '127.0.0.1' });
  await client.subscribe('cpuminer/2.5.1');
  if ((await client.authorize(login)).result !== true) throw new Error('not authorized');
  await client.waitForJob();

  const started = Date.now();
  const mined = await mine(client, login, started + mineSeconds * 1000);
  const seconds = (Date.now() - started) / 1000;
  const list = await api<WorkerList>(pool.baseUrl, '/api/workers', { token: session.token });
  const worker = list.workers.find((w) => w.name === 'cpu1');
  if (!worker) throw new Error('the worker is not listed');
  // On regtest nearly every share is a block: the hashes of shares refused stale (21) are work no
  // pool credits, so the true rate to compare with is that of the accepted shares' hashes.
  const trueRate = mined.acceptedHashes / seconds;
  const implied = expectedHashesPerShare(mined.acceptedDifficulty, 'sha256d') / seconds;
  report.line(
    `1. worker ${fixed(seconds, 0)} s old: hashed ${fixed(mined.hashes / seconds / 1e3, 1)} kH/s, ${fixed(trueRate / 1e3, 1)} kH/s of it on the ${mined.accepted} shares accepted (the rest stale on regtest's blocks), whose difficulty implies ${fixed(implied / 1e3, 1)} kH/s; /api/workers shows ${fixed(worker.hashrate / 1e3, 1)} kH/s over ${worker.averagedSeconds?.realtime ?? '?'} s (10 min), 1 h ${fixed(worker.hashrate1h / 1e3, 1)} kH/s over ${worker.averagedSeconds?.hour ?? '?'} s, 24 h ${fixed(worker.hashrate24h / 1e3, 1)} kH/s; shown/implied ${fixed(worker.hashrate / implied, 2)}, shown/accepted hashing ${fixed(worker.hashrate / trueRate, 2)}`,
  );

  await sleep(quietSeconds * 1000);
  const one = await mine(client, login, 0, 1);
  const shareAt = one.lastAcceptedMs;
  // Read at once, then again until the share is in the figures: an accepted share is durable in
  // the journal when the miner is told, and in the database (what figures are read from) after
  // the writer's next batch.
  let reads = 0;
  let first = '';
  for (;;) {
    const readAt = Date.now();
    const after = await api<WorkerList>(pool.baseUrl, '/api/workers', { token: session.token });
    const again = after.workers.find((w) => w.name === 'cpu1');
    const lastSeenMs = again?.lastSeen ? Date.parse(again.lastSeen) : 0;
    const asOfMs = after.asOf ? Date.parse(after.asOf) : 0;
    const line = `lastSeen ${fixed((lastSeenMs - shareAt) / 1000, 1)} s from the share, asOf ${fixed((asOfMs - readAt) / 1000, 1)} s from the read`;
    if (reads === 0) first = line;
    reads += 1;
    if (lastSeenMs >= shareAt - 1000) {
      report.line(
        `2. after ${quietSeconds} s quiet (no share, no read), one share at ${new Date(shareAt).toISOString()}: read at once: ${first}; in the figures ${readAt - shareAt} ms after it was accepted (read ${reads}: ${line})`,
      );
      break;
    }
    if (Date.now() - shareAt > 30_000) {
      report.line(
        `2. STALE: the share accepted at ${new Date(shareAt).toISOString()} was not in the figures after 30 s (${line})`,
      );
      break;
    }
    await sleep(100);
  }
  await client.close();
} finally {
  await pool.stop();
}
