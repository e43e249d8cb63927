// The receiving end of bin/blocknotify.mjs: a UDP socket on 127.0.0.1 that hears
// "<COIN> <blockhash>" datagrams from the node's -blocknotify command.
import dgram from 'node:dgram';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Coin } from '@manjam/protocol';

/** Absolute path of the command nodes run on each new tip. */
export const BLOCKNOTIFY_SCRIPT = path.resolve(
  fileURLToPath(new URL('../../bin/blocknotify.mjs', import.meta.url)),
);

export interface BlocknotifyMessage {
  coin: string;
  hash: string;
}

/** Parses one datagram; undefined for anything that is not "<COIN> <64 hex>". */
export function parseBlocknotify(datagram: string): BlocknotifyMessage | undefined {
  const match = /^([A-Za-z0-9]{2,10}) ([0-9a-fA-F]{64})\s*$/.exec(datagram);
  if (!match) return undefined;
  return { coin: match[1]!.toUpperCase(), hash: match[2]!.toLowerCase() };
}

/** The -blocknotify value for a node whose tips should reach a listener on `port`. */
export function blocknotifyCommand(port: number, coin: Coin, host = '127.0.0.1'): string {
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(BLOCKNOTIFY_SCRIPT)} ${host}:${port} ${coin} %s`;
}

export class BlocknotifyListener {
  private socket: dgram.Socket | undefined;

  constructor(
    private readonly onMessage: (message: BlocknotifyMessage) => void,
    private readonly onJunk: (datagram: string) => void = () => undefined,
  ) {}

  /** Binds 127.0.0.1:port (0 = ephemeral) and resolves with the bound port. */
  listen(port: number, host = '127.0.0.1'): Promise<number> {
    const socket = dgram.createSocket('udp4');
    this.socket = socket;
    socket.on('message', (buffer) => {
      const text = buffer.toString('utf8', 0, Math.min(buffer.length, 256));
      const message = parseBlocknotify(text);
      if (message) this.onMessage(message);
      else this.onJunk(text);
    });
    return new Promise((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, host, () => {
        socket.off('error', reject);
        socket.on('error', () => undefined);
        resolve(socket.address().port);
      });
    });
  }

  port(): number | undefined {
    return this.socket?.address().port;
  }

  close(): Promise<void> {
    const socket = this.socket;
    this.socket = undefined;
    if (!socket) return Promise.resolve();
    return new Promise((resolve) => socket.close(() => resolve()));
  }
}
