// A drill's miner: one Stratum connection with its own worker name, submitting one share at a time
// (the next when the previous is answered) on its latest job, counting every `true` answer with
// its time and its job's arrival time. When the pool closes the connection or cannot be reached,
// it reconnects every 200 ms, as an ASIC retries its pool. One share in flight at a time, and the
// pool writes a connection's shares in order, so the shares stored for a worker are a prefix of
// those it sent: stored-of-acknowledged = min(stored, acknowledged), exactly.
import { algorithmOf } from '@manjam/protocol';
import type { CoinId } from '../../apps/server/src/config/index.js';
import {
  StratumTestClient,
  type ClientJob,
} from '../../apps/server/test/support/coins/bitcoin/stratum/client.js';

export interface Ack {
  /** Date.now() when the `true` answer arrived. */
  at: number;
  /** Date.now() when the share's job (mining.notify) arrived. */
  jobAt: number;
}

const RECONNECT_MS = 200;

export class DrillMiner {
  readonly acks: Ack[] = [];
  /** Submits answered with an error, by Stratum error message. */
  readonly rejected = new Map<string, number>();
  private running = false;
  private client: StratumTestClient | undefined;
  private loop: Promise<void> | undefined;
  private port: number;

  constructor(
    readonly coin: CoinId,
    readonly login: string,
    port: number,
  ) {
    this.port = port;
  }

  get acknowledged(): number {
    return this.acks.length;
  }

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Where to reconnect from now on (a restarted pool may listen elsewhere). */
  retarget(port: number): void {
    this.port = port;
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.client?.close();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        const client = await StratumTestClient.connect(this.port);
        this.client = client;
        await client.subscribe('manjam-drill/1.0');
        const auth = await client.authorize(this.login);
        if (auth.result === true) {
          await client.waitForJob(() => true, 30_000);
          await this.submitLoop(client);
        }
        await client.close();
      } catch {
        // The pool is down, refused us, or closed the connection: retry like a miner.
      }
      if (this.running) await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
    }
  }

  private async submitLoop(client: StratumTestClient): Promise<void> {
    const algorithm = algorithmOf(this.coin);
    while (this.running && !client.closed) {
      const job: ClientJob | undefined = client.job;
      if (!job) return;
      // Not a block: on regtest most shares would be, and a block changes the tip under the drill.
      const share = client.findShare(job, algorithm, {
        accept: (b, j) => b.hashValue > j.template.networkTarget,
      });
      const reply = await client.submit(this.login, share);
      if (reply.result === true) this.acks.push({ at: Date.now(), jobAt: job.receivedMs });
      else {
        const reason = reply.error?.[1] ?? 'false';
        this.rejected.set(reason, (this.rejected.get(reason) ?? 0) + 1);
        // Let the event loop breathe when every submit is refused (stale jobs), as a miner would.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }
}
