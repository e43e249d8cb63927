// The randomx phase's miners: connections speaking XMRig's dialect (login, then submit), on this
// process's main thread (a few dozen shares a second need no threads of their own). Before each
// timed window each connection's shares are mined for real: RandomX hashes (the project's
// RandomXPool, light mode) of its job's hashing blob with nonces 0, 1, 2... (continued by each
// top-up) — at the frozen share difficulty 1 every hash is a share, distinct nonces are never
// duplicates. The window only replays them, `depth` submits in flight per connection.
import net from 'node:net';
import { withMoneroNonce } from '@manjam/protocol/monero';
import type { RandomXPool } from '@manjam/randomx';
import type { RunResult } from './messages.js';
import {
  hashingBlobNonceOffset,
  type MoneroClientJob,
  type MoneroLoginResult,
} from '../../apps/server/test/support/coins/monero/stratum/miner.js';

interface Reply {
  id?: number;
  method?: string;
  result?: unknown;
  error?: { message?: string } | null;
}

class MoneroLoadConnection {
  sessionId = '';
  job: MoneroClientJob | undefined;
  /** Submit params (JSON) mined up front, sent from the end. */
  shares: string[] = [];
  /** The next nonce to mine. */
  nextNonce = 0;
  /** Request id -> send time (performance.now()). */
  readonly inflight = new Map<number, number>();
  private nextId = 1;
  private buffer = '';
  private loginWaiter: ((reply: Reply) => void) | undefined;
  onReply: (c: MoneroLoadConnection, ms: number, accepted: boolean, message: string) => void = () =>
    undefined;

  private constructor(readonly socket: net.Socket) {
    socket.setNoDelay(true);
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => this.onData(text));
    socket.on('error', () => undefined);
  }

  static open(port: number): Promise<MoneroLoadConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => {
        socket.off('error', reject);
        resolve(new MoneroLoadConnection(socket));
      });
      socket.once('error', reject);
    });
  }

  async login(login: string): Promise<void> {
    const reply = await new Promise<Reply>((resolve) => {
      this.loginWaiter = resolve;
      this.write('login', { login, pass: 'x', agent: 'manjam-bench/1.0', algo: ['rx/0'] });
    });
    const result = reply.result as MoneroLoginResult | null | undefined;
    if (!result) throw new Error(`login refused: ${reply.error?.message ?? 'no result'}`);
    this.sessionId = result.id;
    this.job = result.job;
  }

  /** Sends the next mined share; false when none is left. */
  submitNext(): boolean {
    const params = this.shares.pop();
    if (params === undefined || this.socket.destroyed) return false;
    this.inflight.set(this.write('submit', params), performance.now());
    return true;
  }

  private write(method: string, params: unknown): number {
    const id = this.nextId++;
    const body = typeof params === 'string' ? params : JSON.stringify(params);
    this.socket.write(`{"id":${id},"jsonrpc":"2.0","method":"${method}","params":${body}}\n`);
    return id;
  }

  private onData(text: string): void {
    this.buffer += text;
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      const reply = JSON.parse(this.buffer.slice(0, newline)) as Reply;
      this.buffer = this.buffer.slice(newline + 1);
      newline = this.buffer.indexOf('\n');
      const sent = reply.id === undefined ? undefined : this.inflight.get(reply.id);
      if (sent !== undefined && reply.id !== undefined) {
        this.inflight.delete(reply.id);
        const ok = (reply.result as { status?: string } | null)?.status === 'OK';
        this.onReply(this, performance.now() - sent, ok, reply.error?.message ?? '');
      } else if (reply.id === 1 && this.loginWaiter) {
        this.loginWaiter(reply);
        this.loginWaiter = undefined;
      }
      // A `job` notification (a new template) is not followed: the window runs on one template.
    }
  }
}

/** A timed window's figures, as the V1 generator reports them (messages.ts). */
export type MoneroRun = Omit<RunResult, 'type'>;

const DRAIN_MS = 10_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class MoneroLoad {
  private constructor(private readonly connections: MoneroLoadConnection[]) {}

  /** `count` miners, logged in in turn with each of `addresses` as `<address>.rx<n>`, each with its first job. */
  static async connect(port: number, addresses: readonly string[], count: number): Promise<MoneroLoad> {
    const connections = await Promise.all(
      Array.from({ length: count }, async (_, n) => {
        const c = await MoneroLoadConnection.open(port);
        await c.login(`${addresses[n % addresses.length] ?? ''}.rx${n}`);
        return c;
      }),
    );
    return new MoneroLoad(connections);
  }

  /** Tops every connection up to `perConnection` mined shares with `randomx`; answers the hashes done. */
  async mine(randomx: RandomXPool, perConnection: number): Promise<number> {
    const mined = await Promise.all(
      this.connections.map(async (c) => {
        const job = c.job;
        if (!job) throw new Error('a miner has no job');
        const blob = Uint8Array.from(Buffer.from(job.blob, 'hex'));
        const seed = Uint8Array.from(Buffer.from(job.seed_hash, 'hex'));
        const offset = hashingBlobNonceOffset(blob);
        const first = c.nextNonce;
        const count = Math.max(0, perConnection - c.shares.length);
        c.nextNonce += count;
        const hashes = await Promise.all(
          Array.from({ length: count }, (_, i) =>
            randomx.hash(seed, withMoneroNonce(blob, offset, first + i)),
          ),
        );
        const mined = hashes.map((hash, i) => {
          const nonceHex = Buffer.alloc(4);
          nonceHex.writeUInt32LE(first + i, 0);
          return JSON.stringify({
            id: c.sessionId,
            job_id: job.job_id,
            nonce: nonceHex.toString('hex'),
            result: Buffer.from(hash).toString('hex'),
            algo: 'rx/0',
          });
        });
        c.shares.unshift(...mined);
        return hashes.length;
      }),
    );
    return mined.reduce((n, m) => n + m, 0);
  }

  /**
   * Replays the mined shares for `seconds`, `depth` in flight per connection, then drains the
   * replies; `atEnd` is called the moment the window closes (before the drain).
   */
  async run(seconds: number, depth: number, atEnd: () => void): Promise<MoneroRun> {
    const capacity = this.connections.reduce((n, c) => n + c.shares.length, 0);
    const latencies = new Float64Array(Math.max(1, capacity));
    const run: MoneroRun = {
      seconds: 0,
      sent: 0,
      acceptedInTime: 0,
      accepted: 0,
      rejected: {},
      unanswered: 0,
      starved: 0,
      latencies,
    };
    let answered = 0;
    let open = true;
    const refill = (c: MoneroLoadConnection) => {
      while (open && c.inflight.size < depth) {
        if (!c.submitNext()) {
          run.starved++;
          return;
        }
        run.sent++;
      }
    };
    for (const c of this.connections) {
      c.onReply = (from, ms, ok, message) => {
        if (answered < latencies.length) latencies[answered] = ms;
        answered++;
        if (ok) {
          run.accepted++;
          if (open) run.acceptedInTime++;
        } else run.rejected[message] = (run.rejected[message] ?? 0) + 1;
        refill(from);
      };
    }
    const started = performance.now();
    for (const c of this.connections) refill(c);
    await sleep(seconds * 1000);
    open = false;
    atEnd();
    run.seconds = (performance.now() - started) / 1000;
    const until = performance.now() + DRAIN_MS;
    const waiting = () => this.connections.reduce((n, c) => n + c.inflight.size, 0);
    while (waiting() > 0 && performance.now() < until) await sleep(20);
    run.unanswered = waiting();
    run.latencies = latencies.slice(0, Math.min(answered, latencies.length));
    return run;
  }

  close(): void {
    for (const c of this.connections) c.socket.destroy();
  }
}
