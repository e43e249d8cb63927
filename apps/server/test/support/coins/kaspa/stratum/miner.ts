// A Kaspa Stratum miner for tests (the project's own): subscribes with an agent (which picks the
// notify form the pool sends), authorizes, follows mining.set_extranonce / set_difficulty /
// notify, and mines real kHeavyHash nonces (@manjam/protocol/kaspa) behind its extranonce.
// The words form carries integers above 2^53, so notify lines are read from their raw text.
import net from 'node:net';
import {
  hexToBytes,
  kaspaPowState,
  kaspaPowValue,
  kaspaShareTarget,
  type KaspaPowState,
} from '@manjam/protocol/kaspa';

export interface KaspaClientJob {
  id: string;
  prePow: Uint8Array;
  timestamp: bigint;
  /** The difficulty announced before this job arrived. */
  difficulty: number;
  form: 'words' | 'big-job';
  pow: KaspaPowState;
}

export interface KaspaReply {
  id: number;
  result: unknown;
  error: [number, string, null] | null;
}

const WORDS_NOTIFY = /"params":\["([^"]+)",\[(\d+),(\d+),(\d+),(\d+)\],(\d+)\]/;
const BIG_JOB_NOTIFY = /"params":\["([^"]+)","([0-9a-f]{80})"\]/;

function u64le(value: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value, true);
  return out;
}

export class KaspaTestMiner {
  readonly jobs: KaspaClientJob[] = [];
  /** Every line the pool sent, in order (methods and replies). */
  readonly lines: string[] = [];
  extranonce = '';
  difficulty = 1;
  private nextId = 1;
  private buffer = '';
  private readonly waiting = new Map<number, (reply: KaspaReply) => void>();
  private jobWaiters: (() => void)[] = [];
  private counter = 0n;

  private constructor(private readonly socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      this.buffer += text;
      for (let at = this.buffer.indexOf('\n'); at >= 0; at = this.buffer.indexOf('\n')) {
        const line = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + 1);
        this.onLine(line);
      }
    });
    socket.on('error', () => undefined);
  }

  static connect(port: number): Promise<KaspaTestMiner> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => resolve(new KaspaTestMiner(socket)));
      socket.once('error', reject);
    });
  }

  get closed(): boolean {
    return this.socket.destroyed;
  }

  request(method: string, params: unknown[]): Promise<KaspaReply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.socket.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  }

  /** A raw line, for malformed requests. */
  send(line: string): void {
    this.socket.write(`${line}\n`);
  }

  /** Resolves once `count` jobs have arrived in all. */
  async jobCount(count: number, timeoutMs = 20_000): Promise<KaspaClientJob> {
    const deadline = Date.now() + timeoutMs;
    while (this.jobs.length < count) {
      if (Date.now() > deadline) throw new Error(`${count} jobs not within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 250);
        this.jobWaiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
    return this.jobs[this.jobs.length - 1]!;
  }

  /**
   * The next nonce (the extranonce in front, a counter behind) whose PoW value satisfies `wanted`
   * given the job's share target; returns the miner's hex digits (after the extranonce).
   */
  find(job: KaspaClientJob, wanted: (pow: bigint, shareTarget: bigint) => boolean, tries = 10_000): string {
    const shareTarget = kaspaShareTarget(job.difficulty);
    const minerBits = BigInt(64 - this.extranonce.length * 4);
    const prefix = this.extranonce ? BigInt(`0x${this.extranonce}`) << minerBits : 0n;
    for (let i = 0; i < tries; i++) {
      const counter = this.counter++;
      if (wanted(kaspaPowValue(job.pow, prefix | counter), shareTarget))
        return counter.toString(16).padStart(Number(minerBits / 4n), '0');
    }
    throw new Error(`no nonce in ${tries} tries`);
  }

  submit(worker: string, job: KaspaClientJob, nonce: string): Promise<KaspaReply> {
    return this.request('mining.submit', [worker, job.id, nonce]);
  }

  close(): void {
    this.socket.destroy();
  }

  private onLine(line: string): void {
    this.lines.push(line);
    if (line.includes('"method":"mining.notify"')) return this.onNotify(line);
    const message = JSON.parse(line) as { id?: number; method?: string; params?: unknown[] } & KaspaReply;
    if (message.method === 'mining.set_difficulty') this.difficulty = Number(message.params?.[0]);
    else if (message.method === 'mining.set_extranonce') this.extranonce = String(message.params?.[0]);
    else if (typeof message.id === 'number') {
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      waiter?.(message);
    }
  }

  private onNotify(line: string): void {
    const words = WORDS_NOTIFY.exec(line);
    const big = BIG_JOB_NOTIFY.exec(line);
    let job: Omit<KaspaClientJob, 'pow'>;
    if (words) {
      const prePow = new Uint8Array(32);
      for (let i = 0; i < 4; i++) prePow.set(u64le(BigInt(words[2 + i]!)), i * 8);
      job = {
        id: words[1]!,
        prePow,
        timestamp: BigInt(words[6]!),
        difficulty: this.difficulty,
        form: 'words',
      };
    } else if (big) {
      const bytes = hexToBytes(big[2]!, 'big job', 40);
      const timestamp = new DataView(bytes.buffer, bytes.byteOffset + 32, 8).getBigUint64(0, true);
      job = {
        id: big[1]!,
        prePow: bytes.slice(0, 32),
        timestamp,
        difficulty: this.difficulty,
        form: 'big-job',
      };
    } else throw new Error(`notify in neither form: ${line}`);
    this.jobs.push({ ...job, pow: kaspaPowState(job.prePow, job.timestamp) });
    for (const waiter of this.jobWaiters.splice(0)) waiter();
  }
}
