// A hostile XMR miner for tests and the flood drill: logs in, then sends syntactically valid
// submits with random nonces and an all-zero `result` (a claim that meets any difficulty, so the
// pool must hash it to refuse it), at a steady rate, from the loopback address it is given. It
// reads every reply (a miner that does not read is cut for that alone) and counts them by answer.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { moneroHashMeetsDifficulty, moneroTargetToDifficulty } from '@manjam/protocol/monero';
import type { MoneroTestMiner } from './miner.js';

const ZERO_RESULT = '00'.repeat(32);
const TICK_MS = 10;

/** What the pool sends back: a login reply, a submit reply or a job. */
interface FloodMessage {
  id?: number;
  method?: string;
  params?: { job_id: string };
  result?: { id?: string; job?: { job_id: string }; status?: string } | null;
  error?: { message: string } | null;
}

export interface FloodOptions {
  port: number;
  login: string;
  /** The loopback address the connection comes from (127.0.0.x). */
  localAddress?: string;
  perSecond: number;
  /**
   * At most this many submits unanswered (default: no limit). A flooder that keeps just over its
   * queue's bound in flight stays under the pool's cap on replies held for a connection, so it is
   * not cut for pipelining: only the ban judge cuts it.
   */
  window?: number;
}

export class MoneroFlooder {
  sent = 0;
  /** Replies by answer: 'OK' or the error message. */
  readonly answers = new Map<string, number>();
  closed = false;
  readonly whenClosed: Promise<void>;
  private sessionId = '';
  private jobId = '';
  private buffer = '';
  private timer: NodeJS.Timeout | undefined;
  private nextId = 2;

  private constructor(
    private readonly socket: net.Socket,
    private readonly perSecond: number,
    private readonly window: number,
  ) {
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    this.whenClosed = new Promise((resolve) =>
      socket.once('close', () => {
        this.closed = true;
        this.stop();
        resolve();
      }),
    );
  }

  /** Connects and logs in; resolves once the first job is in hand (rejects when the login is refused). */
  static start(options: FloodOptions): Promise<MoneroFlooder> {
    return new Promise((resolve, reject) => {
      const from = options.localAddress === undefined ? {} : { localAddress: options.localAddress };
      const socket = net.connect({ host: '127.0.0.1', port: options.port, ...from }, () => {
        socket.write(
          `${JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'login', params: { login: options.login, pass: 'x', agent: 'flooder/1.0' } })}\n`,
        );
      });
      socket.once('error', reject);
      const flooder = new MoneroFlooder(
        socket,
        options.perSecond,
        options.window ?? Number.POSITIVE_INFINITY,
      );
      flooder.onLogin = (error) => (error ? reject(new Error(error)) : resolve(flooder));
      socket.on('data', (text: string) => flooder.onData(text));
    });
  }

  /** Starts sending. */
  flood(): void {
    if (this.timer || this.closed) return;
    let owed = 0;
    this.timer = setInterval(() => {
      owed = Math.min(owed + (this.perSecond * TICK_MS) / 1000, this.perSecond);
      const lines: string[] = [];
      for (; owed >= 1 && this.sent - this.replies < this.window; owed--) lines.push(this.submitLine());
      if (lines.length > 0) this.socket.write(lines.join(''));
    }, TICK_MS);
  }

  /** Sends one submit now (the same nonce twice with `nonce`). */
  submitLine(nonce = randomBytes(4).toString('hex'), result = ZERO_RESULT): string {
    this.sent++;
    const params = { id: this.sessionId, job_id: this.jobId, nonce, result, algo: 'rx/0' };
    return `${JSON.stringify({ id: this.nextId++, jsonrpc: '2.0', method: 'submit', params })}\n`;
  }

  send(lines: string): void {
    this.socket.write(lines);
  }

  count(answer: string): number {
    return this.answers.get(answer) ?? 0;
  }

  get replies(): number {
    let total = 0;
    for (const n of this.answers.values()) total += n;
    return total;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  close(): void {
    this.stop();
    this.socket.destroy();
  }

  private onLogin: (error: string | undefined) => void = () => undefined;

  private onData(text: string): void {
    this.buffer += text;
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      newline = this.buffer.indexOf('\n');
      this.onMessage(JSON.parse(line) as FloodMessage);
    }
  }

  private onMessage(message: FloodMessage): void {
    if (message.method === 'job' && message.params) {
      this.jobId = message.params.job_id;
      return;
    }
    if (message.id === 1) {
      if (message.result?.id && message.result.job) {
        this.sessionId = message.result.id;
        this.jobId = message.result.job.job_id;
      }
      this.onLogin(message.error?.message);
      return;
    }
    const answer = message.error ? message.error.message : (message.result?.status ?? 'OK');
    this.answers.set(answer, (this.answers.get(answer) ?? 0) + 1);
  }
}

/** Submit round trips (ms) and answers ('OK' or the error message) of an honest round. */
export interface HonestRound {
  ms: number[];
  answers: string[];
}

/**
 * The honest miner's part: mines and submits `count` shares (none a block) one after the other,
 * the i-th not before `paceMs` x i from the start (a real miner sends one per vardiff target,
 * 15 s by default: a miner submitting as fast as it can on an overloaded test machine would ask
 * for more than its fair share of the pool's hashing).
 */
export async function moneroHonestRound(
  miner: MoneroTestMiner,
  count: number,
  networkDifficulty: bigint,
  paceMs = 0,
): Promise<HonestRound> {
  const round: HonestRound = { ms: [], answers: [] };
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const wait = start + i * paceMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    // A share for the job's difficulty (vardiff may have raised it), not a block (a block moves every job).
    const share = await miner.mine(
      (s) =>
        moneroHashMeetsDifficulty(s.hash, moneroTargetToDifficulty(s.job.target)) &&
        !moneroHashMeetsDifficulty(s.hash, networkDifficulty),
    );
    const started = performance.now();
    const reply = await miner.submit(share);
    round.ms.push(performance.now() - started);
    round.answers.push(reply.error ? reply.error.message : 'OK');
  }
  return round;
}
