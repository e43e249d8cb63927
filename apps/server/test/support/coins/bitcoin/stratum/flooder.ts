// A hostile V1 miner for tests and the flood drill: subscribes and authorizes, then sends
// well-formed mining.submit lines with random nonces on the current job (each needs a real
// proof-of-work hash to be refused: on a port at a high difficulty, all are low-difficulty
// garbage) at a steady rate from the loopback address it is given, and counts the answers.
import { randomBytes } from 'node:crypto';
import type { Algorithm } from '@manjam/protocol';
import { StratumTestClient } from './client.js';

const TICK_MS = 10;

export interface StratumFloodOptions {
  port: number;
  login: string;
  /** The loopback address the connection comes from (127.0.0.x). */
  localAddress?: string;
  perSecond: number;
  /** At most this many submits unanswered (default: no limit; see the XMR flooder). */
  window?: number;
}

export class StratumFlooder {
  sent = 0;
  /** Replies by answer: 'true' or the error message. */
  readonly answers = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    readonly client: StratumTestClient,
    private readonly options: StratumFloodOptions,
  ) {
    void client.closedPromise.then(() => this.stop());
  }

  static async start(options: StratumFloodOptions): Promise<StratumFlooder> {
    const from = options.localAddress === undefined ? {} : { localAddress: options.localAddress };
    const client = await StratumTestClient.connect(options.port, from);
    await client.subscribe('flooder/1.0');
    const auth = await client.authorize(options.login);
    if (auth.result !== true) throw new Error(`flooder not authorized: ${JSON.stringify(auth.error)}`);
    await client.waitForJob();
    return new StratumFlooder(client, options);
  }

  get closed(): boolean {
    return this.client.closed;
  }

  get replies(): number {
    let total = 0;
    for (const n of this.answers.values()) total += n;
    return total;
  }

  count(answer: string): number {
    return this.answers.get(answer) ?? 0;
  }

  flood(): void {
    if (this.timer || this.closed) return;
    const { perSecond, window = Number.POSITIVE_INFINITY } = this.options;
    let owed = 0;
    this.timer = setInterval(() => {
      owed = Math.min(owed + (perSecond * TICK_MS) / 1000, perSecond);
      for (; owed >= 1 && this.sent - this.replies < window && !this.closed; owed--) this.submitOne();
    }, TICK_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  async close(): Promise<void> {
    this.stop();
    await this.client.close();
  }

  private submitOne(): void {
    const job = this.client.job;
    if (!job) return;
    this.sent++;
    const extranonce2 = randomBytes(this.client.extranonce2Size).toString('hex');
    const ntime = job.ntime.toString(16).padStart(8, '0');
    const nonce = randomBytes(4).toString('hex');
    this.client.request('mining.submit', [this.options.login, job.id, extranonce2, ntime, nonce]).then(
      (reply) => {
        const answer = reply.error ? reply.error[1] : String(reply.result);
        this.answers.set(answer, (this.answers.get(answer) ?? 0) + 1);
      },
      () => undefined,
    );
  }
}

/** Submit round trips (ms) and answers ('true' or the error message) of an honest round. */
export interface HonestRound {
  ms: number[];
  answers: string[];
}

/** The honest miner's part: finds and submits `count` shares (none a block) one after the other. */
export async function stratumHonestRound(
  client: StratumTestClient,
  login: string,
  count: number,
  algorithm: Algorithm,
): Promise<HonestRound> {
  const round: HonestRound = { ms: [], answers: [] };
  for (let i = 0; i < count; i++) {
    const job = client.job;
    if (!job) throw new Error('no job');
    const share = client.findShare(job, algorithm, {
      accept: (built) => built.hashValue > job.template.networkTarget,
    });
    const started = performance.now();
    const reply = await client.submit(login, share);
    round.ms.push(performance.now() - started);
    round.answers.push(reply.error ? reply.error[1] : String(reply.result));
  }
  return round;
}
