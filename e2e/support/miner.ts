// A real test miner for the browser tests: it connects to a pool port, authorizes a login and
// sends shares it found by hashing (the server's Stratum test client), until `count` are accepted.
import type { Algorithm } from '@manjam/protocol';
import { StratumTestClient } from '../../apps/server/test/support/coins/bitcoin/stratum/client.js';

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
