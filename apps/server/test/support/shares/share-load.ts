// A load of valid SHA-256d shares for the crash drills: each client precomputes its shares, then
// submits them in pipelined windows and counts the `true` replies it really received.
import { BTC_REGTEST_ADDRESS } from '../coins/bitcoin/stratum/fake-source.js';
import { StratumTestClient } from '../coins/bitcoin/stratum/client.js';

/** Submits in flight per connection: at most this many shares per client are sent but unanswered. */
export const WINDOW = 16;

export interface ShareLoad {
  /** `true` replies received. */
  acked: number;
  /** Replies of any kind received. */
  answered: number;
  sent: number;
  /** Stops sending; resolves when every connection has closed. */
  stop(): Promise<void>;
}

async function prepare(
  port: number,
  index: number,
  shares: number,
): Promise<{ client: StratumTestClient; lines: string[] }> {
  const client = await StratumTestClient.connect(port);
  await client.subscribe();
  const login = `${BTC_REGTEST_ADDRESS}.rig${index}`;
  const auth = await client.authorize(login);
  if (auth.result !== true) throw new Error(`authorize refused: ${JSON.stringify(auth.error)}`);
  const job = await client.waitForJob();
  const lines: string[] = [];
  for (let i = 0; i < shares; i++) {
    const s = client.findShare(job, 'sha256d');
    lines.push(
      `{"id":${i + 100},"method":"mining.submit","params":["${login}","${job.id}","${s.extranonce2}","${s.ntime}","${s.nonce}"]}\n`,
    );
  }
  return { client, lines };
}

/** Opens `clients` connections, mines `shares` each, and submits them until stopped or cut. */
export async function startShareLoad(port: number, clients: number, shares: number): Promise<ShareLoad> {
  const prepared = await Promise.all(Array.from({ length: clients }, (_, i) => prepare(port, i, shares)));
  let stopped = false;
  const load: ShareLoad = {
    acked: 0,
    answered: 0,
    sent: 0,
    async stop() {
      stopped = true;
      await Promise.all(prepared.map(({ client }) => client.close()));
    },
  };
  for (const { client, lines } of prepared) {
    const socket = client.socket;
    socket.removeAllListeners('data');
    let next = 0;
    let waiting = 0;
    let buffer = '';
    const send = () => {
      if (stopped || next >= lines.length) return;
      const end = Math.min(lines.length, next + WINDOW);
      waiting = end - next;
      load.sent += waiting;
      socket.write(lines.slice(next, end).join(''));
      next = end;
    };
    socket.on('data', (text: string) => {
      buffer += text;
      let nl = buffer.indexOf('\n');
      while (nl !== -1) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf('\n');
        if (line.startsWith('{"id":null')) continue;
        load.answered++;
        if (line.includes('"result":true')) load.acked++;
        if (--waiting === 0) send();
      }
    });
    send();
  }
  return load;
}
