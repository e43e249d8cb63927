// A real test miner for the browser tests: it connects to a pool port, authorizes a login and
// sends shares it found by hashing (the server's Stratum test client), until `count` are accepted.
import type { Algorithm } from '@manjam/protocol';
import { StratumTestClient } from '../../apps/server/test/support/coins/bitcoin/stratum/client.js';
import { api, registerAndLogin, type Session } from './api.js';

export async function mineShares(
  port: number,
  login: string,
  algorithm: Algorithm,
  count: number,
): Promise<void> {
  const client = await StratumTestClient.connect(port, { host: '127.0.0.1' });
  try {
    await client.subscribe();
    if ((await client.authorize(login)).result !== true) throw new Error(`${login} was not authorized`);
    let accepted = 0;
    while (accepted < count) {
      const job = client.job ?? (await client.waitForJob());
      const reply = await client.submit(login, client.findShare(job, algorithm));
      // 21: the job went stale under the share (a new block); find another on the new job.
      if (reply.error?.[0] === 21) continue;
      if (reply.error) throw new Error(`${login}: share refused ${JSON.stringify(reply.error)}`);
      accepted += 1;
    }
  } finally {
    await client.close();
  }
}

/** The worker of `miningAccount`: a long name, to find where tables and cards break on a phone. */
export const LONG_WORKER = 'rig-with-a-long-name-01';

/**
 * An account whose screens have rows: a declared ASIC miner on SHA-256 and its worker
 * `LONG_WORKER`, mining until 3 shares are accepted on the pool's SHA-256 port.
 */
export async function miningAccount(
  pool: { baseUrl: string; stratumPort: number },
  prefix: string,
  language: 'en' | 'ar',
): Promise<Session> {
  const session = await registerAndLogin(pool.baseUrl, prefix, language);
  await api(pool.baseUrl, '/api/miners', {
    token: session.token,
    body: {
      name: 'Garage Antminer S19 XP Hydro',
      type: 'asic',
      algorithm: 'sha256',
      workerName: LONG_WORKER,
    },
  });
  await mineShares(pool.stratumPort, `${session.user.username}.${LONG_WORKER}`, 'sha256d', 3);
  return session;
}
