// A Monero Stratum miner for tests, speaking XMRig's dialect: logs in, follows `job`
// notifications, and mines real RandomX hashes with the project's addon (RandomXPool).
import net from 'node:net';
import tls from 'node:tls';
import {
  decodeSmallVarint,
  decodeVarint,
  moneroHashDifficulty,
  moneroTargetToDifficulty,
  withMoneroNonce,
} from '@manjam/protocol/monero';
import type { RandomXPool } from '@manjam/randomx';

export interface MoneroClientJob {
  blob: string;
  job_id: string;
  target: string;
  height: number;
  seed_hash: string;
  algo: string;
}

export interface MoneroReply {
  id: number;
  result: unknown;
  error: { code: number; message: string } | null;
}

export interface MoneroLoginResult {
  id: string;
  job: MoneroClientJob;
  extensions?: string[];
  status: string;
}

export interface MoneroMinedShare {
  job: MoneroClientJob;
  nonce: number;
  /** The nonce as submitted: 8 hex digits of the little-endian uint32. */
  nonceHex: string;
  /** The RandomX hash, 64 hex digits. */
  result: string;
  hash: Uint8Array;
  /** The hashing blob with the nonce written in. */
  hashingBlob: Uint8Array;
  /** The highest difficulty the hash meets. */
  difficulty: bigint;
}

const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));
const hex = (data: Uint8Array): string => Buffer.from(data).toString('hex');

/** Where the nonce sits in a hashing blob: after the three header varints and the 32-byte prev id. */
export function hashingBlobNonceOffset(blob: Uint8Array): number {
  const major = decodeSmallVarint(blob, 0);
  const minor = decodeSmallVarint(blob, major.next);
  return decodeVarint(blob, minor.next).next + 32;
}

/** The transaction count (miner transaction included) a hashing blob ends with: after the nonce and the tree root. */
export function hashingBlobTransactionCount(blob: Uint8Array): number {
  return Number(decodeVarint(blob, hashingBlobNonceOffset(blob) + 4 + 32).value);
}

/** The highest nonce byte a job's blob fixes (XMRig's nicehash mode keeps it), 0 when free. */
export function hashingBlobTopNonceByte(blob: Uint8Array): number {
  return blob[hashingBlobNonceOffset(blob) + 3] ?? 0;
}

export class MoneroTestMiner {
  sessionId = '';
  /** The job the miner works on (login, getjob, or the last notification). */
  job: MoneroClientJob | undefined;
  /** Every job notification received, in order. */
  readonly notifications: MoneroClientJob[] = [];
  private nextId = 1;
  private nextNonce = 0;
  private buffer = '';
  private readonly pending = new Map<number, (reply: MoneroReply) => void>();
  private readonly jobWaiters: ((job: MoneroClientJob) => void)[] = [];

  private constructor(
    private readonly socket: net.Socket,
    private readonly randomx: RandomXPool,
  ) {
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => this.onData(text));
  }

  /** With `tls`, over TLS as XMRig's `"tls": true` (the test's self-signed certificate is not checked). */
  static connect(port: number, randomx: RandomXPool, { tls: secure = false } = {}): Promise<MoneroTestMiner> {
    return new Promise((resolve, reject) => {
      const ready = () => {
        socket.off('error', reject);
        resolve(new MoneroTestMiner(socket, randomx));
      };
      const socket = secure
        ? tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, ready)
        : net.connect({ host: '127.0.0.1', port }, ready);
      socket.once('error', reject);
    });
  }

  request(method: string, params: Record<string, unknown>): Promise<MoneroReply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.socket.write(`${JSON.stringify({ id, jsonrpc: '2.0', method, params })}\n`);
    });
  }

  async login(login: string, pass = 'x'): Promise<MoneroReply> {
    const reply = await this.request('login', {
      login,
      pass,
      agent: 'manjam-test-miner/1.0',
      algo: ['rx/0'],
    });
    const result = reply.result as MoneroLoginResult | null;
    if (result) {
      this.sessionId = result.id;
      this.job = result.job;
    }
    return reply;
  }

  async getjob(): Promise<MoneroReply> {
    const reply = await this.request('getjob', { id: this.sessionId });
    if (reply.result) this.job = reply.result as MoneroClientJob;
    return reply;
  }

  /** The next job notification (or one already received that matches). */
  nextJob(matches: (job: MoneroClientJob) => boolean): Promise<MoneroClientJob> {
    const seen = this.notifications.find(matches);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const waiter = (job: MoneroClientJob): void => {
        if (!matches(job)) return;
        this.jobWaiters.splice(this.jobWaiters.indexOf(waiter), 1);
        resolve(job);
      };
      this.jobWaiters.push(waiter);
    });
  }

  /**
   * Hashes nonces of `job` (default: the current one), `parallel` at a time, until `accept` takes
   * one. With `topByte` the nonce's highest byte is fixed, as XMRig does in nicehash mode (a
   * nicehash proxy gives each of its miners one such byte).
   */
  async mine(
    accept: (share: MoneroMinedShare) => boolean,
    {
      parallel = 2,
      maxNonces = 10_000,
      topByte,
      job = this.job,
    }: { parallel?: number; maxNonces?: number; topByte?: number; job?: MoneroClientJob } = {},
  ): Promise<MoneroMinedShare> {
    if (!job) throw new Error('no job yet');
    for (let tried = 0; tried < maxNonces; tried += parallel) {
      const nonces = Array.from({ length: parallel }, () => {
        const counter = this.nextNonce++;
        return topByte === undefined ? counter : ((topByte << 24) | (counter & 0xffffff)) >>> 0;
      });
      const shares = await Promise.all(nonces.map((nonce) => this.hash(job, nonce)));
      const found = shares.find(accept);
      if (found) return found;
    }
    throw new Error(`no acceptable share in ${maxNonces} nonces`);
  }

  /** The share of one nonce on `job` (hashed with RandomX, judged by nobody yet). */
  async hash(job: MoneroClientJob, nonce: number): Promise<MoneroMinedShare> {
    const blob = bytes(job.blob);
    const hashingBlob = withMoneroNonce(blob, hashingBlobNonceOffset(blob), nonce);
    const hash = await this.randomx.hash(bytes(job.seed_hash), hashingBlob);
    const nonceHex = Buffer.alloc(4);
    nonceHex.writeUInt32LE(nonce, 0);
    return {
      job,
      nonce,
      nonceHex: nonceHex.toString('hex'),
      result: hex(hash),
      hash,
      hashingBlob,
      difficulty: moneroHashDifficulty(hash),
    };
  }

  /** The difficulty the current job asks for. */
  get difficulty(): bigint {
    if (!this.job) throw new Error('no job yet');
    return moneroTargetToDifficulty(this.job.target);
  }

  submit(share: MoneroMinedShare, override: { result?: string; job_id?: string } = {}): Promise<MoneroReply> {
    return this.request('submit', {
      id: this.sessionId,
      job_id: override.job_id ?? share.job.job_id,
      nonce: share.nonceHex,
      result: override.result ?? share.result,
      algo: 'rx/0',
    });
  }

  /** Calls `listener` when the pool closes the connection. */
  onClose(listener: () => void): void {
    this.socket.once('close', listener);
  }

  close(): void {
    this.socket.destroy();
  }

  private onData(text: string): void {
    this.buffer += text;
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      newline = this.buffer.indexOf('\n');
      const message = JSON.parse(line) as { id?: number; method?: string; params?: MoneroClientJob };
      if (message.method === 'job' && message.params) {
        this.job = message.params;
        this.notifications.push(message.params);
        for (const waiter of [...this.jobWaiters]) waiter(message.params);
        continue;
      }
      const resolve = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
      if (resolve && typeof message.id === 'number') {
        this.pending.delete(message.id);
        resolve(message as MoneroReply);
      }
    }
  }
}
