// Kaspa miners for the kheavyhash phase, lean enough for a thousand on one core: each logs in
// with a mainnet address, counts the jobs and bytes the pool sends, keeps only the newest job id,
// and (when asked) submits nonces behind its extranonce with `depth` submits in flight. At the
// phase's difficulty every nonce is a share (lib/kheavyhash-pool.ts), so a miner needs no hashing;
// each nonce is new (a counter), so none is a duplicate.
import net from 'node:net';
import { MAINNET_BLOCK } from '../../packages/protocol/test/kaspa/test-fixtures.js';

const JOB_ID = /"method":"mining\.notify","params":\["([^"]+)"/;
const EXTRANONCE = /"method":"mining\.set_extranonce","params":\["([0-9a-f]*)"/;
const REPLY = /^\{"id":(\d+),"result":(true|null|false)/;

/** lolMiner takes the four-word jobs, IceRiver firmware the 80-hex big job: half each. */
const AGENTS = ['lolMiner 1.88', 'IceRiverMiner-v1.1'];

export class KaspaLoadMiner {
  jobs = 0;
  bytes = 0;
  accepted = 0;
  rejected = 0;
  private jobId = '';
  private extranonce = '';
  private counter = 0n;
  private buffer = '';
  private nextId = 1;
  private inFlight = 0;
  private submitting = false;
  private readonly waiting = new Map<number, () => void>();
  /** Ids of submits waiting for their answer (the other requests are logins). */
  private readonly submits = new Set<number>();

  private constructor(
    private readonly socket: net.Socket,
    private readonly worker: string,
  ) {
    socket.setEncoding('utf8');
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    socket.on('data', (text: string) => this.onData(text));
  }

  /** Connects, subscribes and authorizes; resolves at the first job. */
  static async connect(port: number, index: number): Promise<KaspaLoadMiner> {
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect({ host: '127.0.0.1', port }, () => resolve(s));
      s.once('error', reject);
    });
    const miner = new KaspaLoadMiner(socket, `load${index}`);
    miner.send('mining.subscribe', [AGENTS[index % AGENTS.length]!]);
    await miner.request('mining.authorize', [`${MAINNET_BLOCK.coinbaseAddress}.${miner.worker}`, 'x']);
    while (!miner.jobId) await new Promise((resolve) => setTimeout(resolve, 10));
    return miner;
  }

  /** Keeps `depth` submits in flight on the newest job until stop(). */
  startSubmitting(depth: number): void {
    this.submitting = true;
    for (let i = 0; i < depth; i++) this.submitNext();
  }

  stopSubmitting(): void {
    this.submitting = false;
  }

  /** Resolves once no submit is waiting for its answer. */
  async drained(): Promise<void> {
    while (this.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  close(): void {
    this.socket.destroy();
  }

  private submitNext(): void {
    if (!this.submitting || this.socket.destroyed) return;
    const minerDigits = 16 - this.extranonce.length;
    const nonce = (this.counter++).toString(16).padStart(minerDigits, '0');
    this.inFlight++;
    void this.request('mining.submit', [this.worker, this.jobId, nonce], true).then(() => {
      this.inFlight--;
      this.submitNext();
    });
  }

  private send(method: string, params: unknown[]): number {
    const id = this.nextId++;
    this.socket.write(`{"id":${id},"method":"${method}","params":${JSON.stringify(params)}}\n`);
    return id;
  }

  private request(method: string, params: unknown[], submit = false): Promise<void> {
    return new Promise((resolve) => {
      const id = this.send(method, params);
      this.waiting.set(id, resolve);
      if (submit) this.submits.add(id);
    });
  }

  private onData(text: string): void {
    this.bytes += Buffer.byteLength(text);
    this.buffer += text;
    for (let at = this.buffer.indexOf('\n'); at >= 0; at = this.buffer.indexOf('\n')) {
      this.onLine(this.buffer.slice(0, at));
      this.buffer = this.buffer.slice(at + 1);
    }
  }

  private onLine(line: string): void {
    const job = JOB_ID.exec(line);
    if (job) {
      this.jobs++;
      this.jobId = job[1]!;
      return;
    }
    const extranonce = EXTRANONCE.exec(line);
    if (extranonce) {
      this.extranonce = extranonce[1]!;
      return;
    }
    const reply = REPLY.exec(line);
    if (!reply) return;
    const id = Number(reply[1]);
    if (this.submits.delete(id)) {
      if (reply[2] === 'true') this.accepted++;
      else this.rejected++;
    }
    const done = this.waiting.get(id);
    this.waiting.delete(id);
    done?.();
  }
}
