// The receiving end of a node's -blocknotify command (blocknotifyCommand, or bin/blocknotify.mjs):
// a UDP socket on 127.0.0.1 that hears "<COIN> <blockhash>" datagrams.
import dgram from 'node:dgram';
import type { Coin } from '@manjam/protocol';

export { BLOCKNOTIFY_SCRIPT } from '../../../files/index.js';

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

/**
 * The -blocknotify value for a node whose tips should reach a listener on `port`: bash writes the
 * datagram itself (its /dev/udp redirection), about 2.5 ms from the node's fork to the datagram
 * on this machine, against about 60 ms for `node bin/blocknotify.mjs` (Node's start-up), which a
 * node's longpoll answer beats. Nodes run the command through /bin/sh with %s replaced by the
 * block hash (hex, so the quotes need no escaping). bin/blocknotify.mjs remains for machines
 * whose shell has no bash (README, "Running against mainnet nodes").
 */
export function blocknotifyCommand(port: number, coin: Coin, host = '127.0.0.1'): string {
  return `bash -c 'echo ${coin} %s >/dev/udp/${host}/${port}'`;
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
