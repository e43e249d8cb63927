// One miner connection of the load generator: raw socket, pre-serialized requests, and a reply
// parser that reads only the id and the result of each answer (full JSON only for the rare
// notification or error), so the generator spends as little CPU per share as it can.
import net from 'node:net';

export interface ConnectionEvents {
  /** An answer to one of our submits: latency in ms, true when accepted, else the error code. */
  onReply(connection: LoadConnection, latencyMs: number, accepted: boolean, errorCode: number): void;
}

const SUBMIT_ID_BASE = 1_000;

export class LoadConnection {
  extranonce1 = Buffer.alloc(0);
  extranonce2Size = 4;
  difficulty = 0;
  notifyParams: unknown[] | undefined;
  /** When the first clean job on each previous block arrived (prevhash as in mining.notify -> wall-clock ms). */
  readonly cleanJobAt = new Map<string, number>();
  shares: string[] = [];
  /** Submit id -> send time (performance.now()). */
  readonly inflight = new Map<number, number>();
  private nextId = SUBMIT_ID_BASE;
  private buffer = '';
  private readyResolve: (() => void) | undefined;
  private readyReject: ((error: Error) => void) | undefined;
  private readonly readyPromise: Promise<void>;
  closed = false;

  private constructor(
    readonly socket: net.Socket,
    private readonly events: ConnectionEvents,
  ) {
    this.readyPromise = new Promise((resolve, reject) => {
      this.readyResolve = resolve;
      this.readyReject = reject;
    });
    this.readyPromise.catch(() => undefined);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
    });
  }

  static open(
    host: string,
    port: number,
    events: ConnectionEvents,
    timeoutMs = 30_000,
  ): Promise<LoadConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host, port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error('connect timed out'));
      }, timeoutMs);
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(new LoadConnection(socket, events));
      });
    });
  }

  /** mining.subscribe + mining.authorize in one write; resolves on the first mining.notify. */
  async handshake(login: string, timeoutMs = 60_000): Promise<void> {
    this.socket.write(
      `{"id":1,"method":"mining.subscribe","params":["manjam-bench/1.0"]}\n{"id":2,"method":"mining.authorize","params":[${JSON.stringify(login)},"x"]}\n`,
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no job within ${timeoutMs} ms (closed: ${this.closed})`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([this.readyPromise, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sends the next precomputed share; false when none is left. */
  submitNext(): boolean {
    const params = this.shares.pop();
    if (params === undefined || this.closed) return false;
    const id = this.nextId++;
    this.inflight.set(id, performance.now());
    this.socket.write(`{"id":${id},"method":"mining.submit","params":${params}}\n`);
    return true;
  }

  close(): void {
    this.socket.destroy();
  }

  private onData(text: string): void {
    this.buffer = this.buffer.length === 0 ? text : this.buffer + text;
    let start = 0;
    let newline = this.buffer.indexOf('\n');
    while (newline !== -1) {
      this.onLine(this.buffer.slice(start, newline));
      start = newline + 1;
      newline = this.buffer.indexOf('\n', start);
    }
    this.buffer = start === this.buffer.length ? '' : this.buffer.slice(start);
  }

  private onLine(line: string): void {
    // Fast path: the pool writes answers as {"id":N,"result":...,"error":...}.
    if (line.startsWith('{"id":') && line.charCodeAt(6) !== 110 /* n of null */) {
      const comma = line.indexOf(',', 6);
      const id = Number(line.slice(6, comma));
      const sent = this.inflight.get(id);
      if (sent !== undefined) {
        this.inflight.delete(id);
        const accepted = line.startsWith('"result":true', comma + 1);
        this.events.onReply(this, performance.now() - sent, accepted, accepted ? 0 : errorCode(line));
        return;
      }
    }
    this.onMessage(
      JSON.parse(line) as {
        id?: unknown;
        method?: string;
        params?: unknown[];
        result?: unknown;
        error?: unknown;
      },
    );
  }

  private onMessage(message: {
    id?: unknown;
    method?: string;
    params?: unknown[];
    result?: unknown;
    error?: unknown;
  }): void {
    if (message.method === 'mining.set_difficulty') {
      this.difficulty = Number(message.params?.[0]);
    } else if (message.method === 'mining.notify') {
      this.notifyParams = message.params;
      const prevhash = message.params?.[1];
      if (message.params?.[8] === true && typeof prevhash === 'string' && !this.cleanJobAt.has(prevhash))
        this.cleanJobAt.set(prevhash, performance.timeOrigin + performance.now());
      this.readyResolve?.();
    } else if (message.id === 1 && Array.isArray(message.result)) {
      this.extranonce1 = Buffer.from(String(message.result[1]), 'hex');
      this.extranonce2Size = Number(message.result[2]);
    } else if ((message.id === 1 || message.id === 2) && message.result !== true) {
      this.readyReject?.(new Error(`handshake refused: ${JSON.stringify(message.error)}`));
    }
  }
}

function errorCode(line: string): number {
  const parsed = JSON.parse(line) as { error?: unknown };
  return Array.isArray(parsed.error) && typeof parsed.error[0] === 'number' ? parsed.error[0] : -1;
}
