// A stand-in Bitcoin node for the new-tip phase (run in its own process by lib/fake-node-process.ts):
// a JSON-RPC server on 127.0.0.1 that answers what the pool's template watcher asks
// (getblocktemplate with longpoll, getbestblockhash, getblockheader, getblockcount, submitblock)
// on a mainnet-like chain whose templates carry the frozen 2,000 transactions. `mine()` moves the
// tip in Bitcoin Core's order: the tip changes, the -blocknotify command runs at once (through
// /bin/sh with %s replaced by the hash, as Core's runCommand does), then the new template is built
// and the longpolls held on the old tip are answered with it. Core builds that template holding
// cs_main, which getblockheader also takes; here the event loop is busy building it (serializing
// the 1 MB answer), so a header asked meanwhile waits for it the same way. Core's own
// createNewBlock (selection and TestBlockValidity, tens of ms on mainnet) is not modelled: a real
// node's longpoll answer comes later than this one's.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BlockTemplateRpc } from '@manjam/protocol';
import { frozenTemplate } from './frozen-source.js';

/** Wall-clock milliseconds comparable across processes (performance.timeOrigin is wall-clock). */
export const nowMs = (): number => performance.timeOrigin + performance.now();

interface Tip {
  hash: string;
  height: number;
  time: number;
}

/** What one new block cost the node: when its tip changed, and the longpolls it answered. */
export interface Mined {
  hash: string;
  /** When the tip changed (nowMs()). */
  at: number;
  /** Longpolls held on the previous tip, answered with the new template. */
  longpolls: number;
  /** From the tip change to the last longpoll answer written (ms; 0 with none held). */
  answeredAfterMs: number;
  /** From the tip change to the blocknotify command's exit, its datagram sent (ms; NaN: none ran or it failed). */
  notifiedAfterMs: number;
}

/** The median time past the fake chain reports: blocks 600 s apart, MTP 5 blocks back. */
const MTP_LAG_SECONDS = 3_000;

export class FakeNode {
  private readonly base: BlockTemplateRpc = frozenTemplate('BTC');
  private tip: Tip;
  private generation = 0;
  private longpolls: ((body: string) => void)[] = [];
  private notifyCommand: string | undefined;

  private constructor(private readonly server: http.Server) {
    this.tip = {
      hash: randomBytes(32).toString('hex'),
      height: this.base.height - 1,
      time: this.base.curtime,
    };
  }

  static async start(): Promise<FakeNode> {
    const server = http.createServer();
    const node = new FakeNode(server);
    server.on('request', (req, res) => node.onRequest(req, res));
    server.keepAliveTimeout = 600_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return node;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The -blocknotify command (with %s) run on every new tip. */
  blocknotify(command: string): void {
    this.notifyCommand = command;
  }

  /** A new block on the tip; resolves when its blocknotify command has exited. */
  async mine(): Promise<Mined> {
    this.tip = {
      hash: randomBytes(32).toString('hex'),
      height: this.tip.height + 1,
      time: this.tip.time + 600,
    };
    this.generation++;
    const at = nowMs();
    const notified = this.runBlocknotify(this.tip.hash);
    const waiting = this.longpolls;
    this.longpolls = [];
    if (waiting.length > 0) {
      const body = JSON.stringify(this.template());
      for (const answer of waiting) answer(body);
    }
    const answeredAfterMs = waiting.length > 0 ? nowMs() - at : 0;
    const hash = this.tip.hash;
    const exited = await notified;
    return { hash, at, longpolls: waiting.length, answeredAfterMs, notifiedAfterMs: exited - at };
  }

  async close(): Promise<void> {
    const body = JSON.stringify(this.template());
    for (const answer of this.longpolls) answer(body);
    this.longpolls = [];
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Runs the command; resolves with when it exited (nowMs(); NaN when it failed or none is set). */
  private runBlocknotify(hash: string): Promise<number> {
    if (this.notifyCommand === undefined) return Promise.resolve(Number.NaN);
    const child = spawn('/bin/sh', ['-c', this.notifyCommand.split('%s').join(hash)], { stdio: 'ignore' });
    return new Promise((resolve) => {
      child.on('error', (error) => {
        process.stderr.write(`fake node: blocknotify failed: ${error.message}\n`);
        resolve(Number.NaN);
      });
      child.on('exit', (code) => {
        if (code !== 0) process.stderr.write(`fake node: blocknotify exited with ${code}\n`);
        resolve(code === 0 ? nowMs() : Number.NaN);
      });
    });
  }

  private template(): BlockTemplateRpc & { longpollid: string } {
    const mediantime = this.tip.time - MTP_LAG_SECONDS;
    return {
      ...this.base,
      previousblockhash: this.tip.hash,
      height: this.tip.height + 1,
      curtime: Math.max(this.tip.time + 1, Math.floor(Date.now() / 1000)),
      mintime: mediantime + 1,
      longpollid: `${this.tip.hash}${this.generation}`,
    };
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const { id, method, params } = JSON.parse(body) as { id: unknown; method: string; params: unknown[] };
      const write = (text: string) => {
        res.setHeader('content-type', 'application/json');
        res.end(text);
      };
      const send = (result: unknown, error: { code: number; message: string } | null = null) =>
        write(JSON.stringify({ result, error, id }));
      const idJson = JSON.stringify(id);
      const longpollid = (params[0] as { longpollid?: string } | undefined)?.longpollid;
      if (
        method === 'getblocktemplate' &&
        longpollid !== undefined &&
        longpollid === this.template().longpollid
      ) {
        // Answered by mine() with the template it builds once for every held call.
        this.longpolls.push((result) => write(`{"result":${result},"error":null,"id":${idJson}}`));
        return;
      }
      if (method === 'getblocktemplate') return send(this.template());
      if (method === 'getbestblockhash') return send(this.tip.hash);
      if (method === 'getblockcount') return send(this.tip.height);
      if (method === 'submitblock') return send('rejected: benchmark node');
      if (method === 'getblockheader' && params[0] === this.tip.hash) {
        return send({
          hash: this.tip.hash,
          confirmations: 1,
          height: this.tip.height,
          version: this.base.version,
          merkleroot: '00'.repeat(32),
          time: this.tip.time,
          mediantime: this.tip.time - MTP_LAG_SECONDS,
          bits: this.base.bits,
          difficulty: 1,
        });
      }
      send(null, { code: -32601, message: `${method} is not served by the benchmark node` });
    });
  }
}
