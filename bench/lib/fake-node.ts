// A stand-in Bitcoin node for the new-tip phase: a JSON-RPC server on 127.0.0.1 that answers what
// the pool's template watcher asks (getblocktemplate with longpoll, getbestblockhash,
// getblockheader, getblockcount, submitblock) on a mainnet-like chain whose templates carry the
// frozen 2,000 transactions. `mine()` moves the tip the way a node does when a block arrives: the
// tip changes, held longpolls answer, and a blocknotify datagram goes to the pool.
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BlockTemplateRpc } from '@manjam/protocol';
import { frozenTemplate } from './frozen-source.js';

/** Wall-clock milliseconds comparable across the threads of this process. */
export const nowMs = (): number => performance.timeOrigin + performance.now();

interface Tip {
  hash: string;
  height: number;
  time: number;
}

export class FakeNode {
  private readonly base: BlockTemplateRpc = frozenTemplate('BTC');
  private tip: Tip;
  private generation = 0;
  private longpolls: (() => void)[] = [];
  private readonly udp = dgram.createSocket('udp4');
  private notifyPort: number | undefined;

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

  /** Where blocknotify datagrams go (the pool's watcher port). */
  notifyTo(port: number): void {
    this.notifyPort = port;
  }

  get tipHash(): string {
    return this.tip.hash;
  }

  /** A new block on the tip; returns when the tip changed (nowMs()). */
  mine(): number {
    this.tip = {
      hash: randomBytes(32).toString('hex'),
      height: this.tip.height + 1,
      time: this.tip.time + 600,
    };
    this.generation++;
    const at = nowMs();
    if (this.notifyPort !== undefined) this.udp.send(`BTC ${this.tip.hash}`, this.notifyPort, '127.0.0.1');
    const waiting = this.longpolls;
    this.longpolls = [];
    for (const answer of waiting) answer();
    return at;
  }

  async close(): Promise<void> {
    for (const answer of this.longpolls) answer();
    this.longpolls = [];
    this.udp.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private template(): BlockTemplateRpc & { longpollid: string } {
    return {
      ...this.base,
      previousblockhash: this.tip.hash,
      height: this.tip.height + 1,
      curtime: Math.max(this.tip.time + 1, Math.floor(Date.now() / 1000)),
      mintime: this.tip.time - 3_000,
      longpollid: `${this.tip.hash}${this.generation}`,
    };
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const { id, method, params } = JSON.parse(body) as { id: unknown; method: string; params: unknown[] };
      const send = (result: unknown, error: { code: number; message: string } | null = null) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ result, error, id }));
      };
      const longpollid = (params[0] as { longpollid?: string } | undefined)?.longpollid;
      if (
        method === 'getblocktemplate' &&
        longpollid !== undefined &&
        longpollid === this.template().longpollid
      ) {
        this.longpolls.push(() => send(this.template()));
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
          mediantime: this.tip.time - 3_000,
          bits: this.base.bits,
          difficulty: 1,
        });
      }
      send(null, { code: -32601, message: `${method} is not served by the benchmark node` });
    });
  }
}
