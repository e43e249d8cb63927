// A Stratum V1 client for tests: connects, subscribes, authorizes, follows set_difficulty and
// notify like a real miner, and mines real hashes by iterating nonces with protocol.buildShare.
import net from 'node:net';
import tls from 'node:tls';
import {
  bitsToTarget,
  buildShare,
  difficultyToTarget,
  prevHashToStratum,
  type Algorithm,
  type BuiltShare,
  type JobTemplate,
} from '@manjam/protocol';

export interface Reply {
  id: number | string | null;
  result: unknown;
  error: [number, string, null] | null;
}

export interface ClientJob {
  id: string;
  clean: boolean;
  /** The share difficulty in force for this job (the last set_difficulty before its notify). */
  difficulty: number;
  receivedMs: number;
  template: JobTemplate;
  ntime: number;
  params: unknown[];
}

export interface FoundShare {
  job: ClientJob;
  extranonce2: string;
  ntime: string;
  nonce: string;
  built: BuiltShare;
}

export interface MineOptions {
  /** Accept a hash only when this also holds (e.g. not a block, or a block). */
  accept?: (share: BuiltShare, job: ClientJob) => boolean;
  /** Which extranonce2 to use (default: a per-client counter). */
  extranonce2?: number;
  maxNonces?: number;
}

/** A partial JobTemplate rebuilt from mining.notify params: exactly what buildShare reads. */
export function templateFromNotify(
  params: unknown[],
  extranonce1Size: number,
  extranonce2Size: number,
): JobTemplate {
  const [, prevHash, coinb1, coinb2, branch, version, bits, ntime] = params as [
    string,
    string,
    string,
    string,
    string[],
    string,
    string,
    string,
  ];
  const curtime = Number.parseInt(ntime, 16);
  return {
    height: 0,
    prevHashRpc: prevHashToStratum(prevHash),
    prevHashStratum: prevHash,
    version: Number.parseInt(version, 16),
    bits,
    curtime,
    mintime: curtime,
    networkTarget: bitsToTarget(bits),
    coinbaseValue: 0n,
    fees: 0n,
    subsidy: 0n,
    coinb1: Buffer.from(coinb1, 'hex'),
    coinb2: Buffer.from(coinb2, 'hex'),
    extranonce1Size,
    extranonce2Size,
    merkleBranch: branch.map((b) => Buffer.from(b, 'hex')),
    transactions: [],
    segwit: false,
    mweb: undefined,
  };
}

export class StratumTestClient {
  readonly received: string[] = [];
  readonly jobs: ClientJob[] = [];
  extranonce1 = Buffer.alloc(0);
  extranonce2Size = 4;
  difficulty = 0;
  private pendingDifficulty: number | undefined;
  private nextId = 1;
  private nextExtranonce2 = 0;
  private buffer = '';
  private readonly waiters = new Map<
    number | string,
    { resolve: (reply: Reply) => void; reject: (error: Error) => void }
  >();
  private readonly watchers = new Set<() => void>();
  closed = false;
  readonly closedPromise: Promise<void>;

  private constructor(readonly socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.setNoDelay(true);
    socket.on('data', (text: string) => this.onData(text));
    socket.on('error', () => undefined);
    this.closedPromise = new Promise((resolve) =>
      socket.on('close', () => {
        this.closed = true;
        for (const waiter of this.waiters.values()) waiter.reject(new Error('connection closed'));
        this.waiters.clear();
        this.wake();
        resolve();
      }),
    );
  }

  /** `localAddress` (e.g. 127.0.0.2) makes the connection come from another loopback address. */
  static connect(
    port: number,
    options: { host?: string; tls?: boolean; localAddress?: string } = {},
  ): Promise<StratumTestClient> {
    const host = options.host ?? '127.0.0.1';
    const from = options.localAddress === undefined ? {} : { localAddress: options.localAddress };
    return new Promise((resolve, reject) => {
      const socket = options.tls
        ? tls.connect({ host, port, rejectUnauthorized: false, ...from }, () =>
            resolve(new StratumTestClient(socket)),
          )
        : net.connect({ host, port, ...from }, () => resolve(new StratumTestClient(socket)));
      socket.once('error', reject);
    });
  }

  get job(): ClientJob | undefined {
    return this.jobs[this.jobs.length - 1];
  }

  sendRaw(text: string): void {
    this.socket.write(text);
  }

  request(method: string, params: unknown[], id: number | string = this.nextId++): Promise<Reply> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error(`connection closed before ${method}`));
      this.waiters.set(id, { resolve, reject });
      this.socket.write(JSON.stringify({ id, method, params }) + '\n');
    });
  }

  subscribe(userAgent = 'manjam-test/1.0', sessionId?: string): Promise<Reply> {
    return this.request('mining.subscribe', sessionId === undefined ? [userAgent] : [userAgent, sessionId]);
  }

  authorize(login: string, password = 'x'): Promise<Reply> {
    return this.request('mining.authorize', [login, password]);
  }

  /** Resolves with the first job (already received or coming) that passes `test`. */
  waitForJob(test: (job: ClientJob) => boolean = () => true, timeoutMs = 15_000): Promise<ClientJob> {
    return this.waitFor(() => this.jobs.find(test), timeoutMs, 'a matching mining.notify');
  }

  /** Resolves when a received line passes `test`. */
  waitForLine(test: (line: string) => boolean, timeoutMs = 15_000): Promise<string> {
    return this.waitFor(() => this.received.find(test), timeoutMs, 'a matching line');
  }

  /** Iterates nonces on a job until the hash meets the job's share target (and `accept`). */
  findShare(job: ClientJob, algorithm: Algorithm, options: MineOptions = {}): FoundShare {
    const en2Value = options.extranonce2 ?? this.nextExtranonce2++;
    const extranonce2 = Buffer.alloc(this.extranonce2Size);
    const width = Math.min(4, this.extranonce2Size);
    extranonce2.writeUIntBE(en2Value % 2 ** (8 * width), this.extranonce2Size - width, width);
    const target = difficultyToTarget(job.difficulty, algorithm);
    const max = options.maxNonces ?? 1_000_000;
    for (let nonce = 0; nonce < max; nonce++) {
      const built = buildShare(job.template, algorithm, {
        extranonce1: this.extranonce1,
        extranonce2,
        ntime: job.ntime,
        nonce,
        version: job.template.version,
      });
      if (built.hashValue <= target && (options.accept?.(built, job) ?? true)) {
        return {
          job,
          extranonce2: extranonce2.toString('hex'),
          ntime: hex8(job.ntime),
          nonce: hex8(nonce),
          built,
        };
      }
    }
    throw new Error(`no share found in ${max} nonces`);
  }

  submit(login: string, share: FoundShare, extra: unknown[] = []): Promise<Reply> {
    return this.request('mining.submit', [
      login,
      share.job.id,
      share.extranonce2,
      share.ntime,
      share.nonce,
      ...extra,
    ]);
  }

  close(): Promise<void> {
    this.socket.destroy();
    return this.closedPromise;
  }

  /** Resolves with the first defined value of `probe`, checked on every received chunk. */
  waitFor<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = probe();
        if (found !== undefined) {
          cleanup();
          resolve(found);
          return true;
        }
        if (this.closed) {
          cleanup();
          reject(new Error(`connection closed while waiting for ${what}`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.watchers.delete(check);
      };
      if (!check()) this.watchers.add(check);
    });
  }

  private wake(): void {
    for (const watcher of [...this.watchers]) watcher();
  }

  private onData(text: string): void {
    this.buffer += text;
    let newline = this.buffer.indexOf('\n');
    while (newline !== -1) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (line.length > 0) this.onLine(line);
      newline = this.buffer.indexOf('\n');
    }
    if (this.watchers.size > 0) this.wake();
  }

  private onLine(line: string): void {
    this.received.push(line);
    const message = JSON.parse(line) as {
      id?: number | string | null;
      method?: string;
      params?: unknown[];
      result?: unknown;
      error?: Reply['error'];
    };
    if (message.method === 'mining.set_difficulty') {
      const value = Number(message.params?.[0]);
      if (this.jobs.length === 0) this.difficulty = value;
      else this.pendingDifficulty = value;
    } else if (message.method === 'mining.notify') {
      this.onNotify(message.params ?? []);
    } else if (message.method === undefined && message.id !== undefined && message.id !== null) {
      const result = message.result;
      // A subscribe answer (sent through request() or raw): [subscriptions, extranonce1, size].
      if (
        Array.isArray(result) &&
        result.length === 3 &&
        typeof result[1] === 'string' &&
        typeof result[2] === 'number'
      ) {
        this.extranonce1 = Buffer.from(result[1], 'hex');
        this.extranonce2Size = result[2];
      }
      const waiter = this.waiters.get(message.id);
      this.waiters.delete(message.id);
      waiter?.resolve({ id: message.id, result: message.result ?? null, error: message.error ?? null });
    }
  }

  private onNotify(params: unknown[]): void {
    if (this.pendingDifficulty !== undefined) {
      this.difficulty = this.pendingDifficulty;
      this.pendingDifficulty = undefined;
    }
    const template = templateFromNotify(params, this.extranonce1.length, this.extranonce2Size);
    this.jobs.push({
      id: String(params[0]),
      clean: params[8] === true,
      difficulty: this.difficulty,
      receivedMs: Date.now(),
      template,
      ntime: template.curtime,
      params,
    });
  }
}

function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}
