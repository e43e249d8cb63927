// Stratum V2 floods for the edge drill (bench/edges.ts calls these; each returns its counts and
// prints nothing): act-one floods from several local addresses at a fixed concurrency, and
// channel floods that open channels on V2 connections until the pool refuses. What honest miners
// see meanwhile is the drill's to measure.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { ACT_TWO_BYTES } from '@manjam/protocol/sv2';
import { Sv2TestClient } from '../../apps/server/test/support/coins/bitcoin/stratum-v2/client.js';

export interface HandshakeFloodResult {
  /** Connections opened. */
  started: number;
  /** Act two received (the pool computed a handshake for 64 random bytes). */
  answered: number;
  /** Closed by the pool without act two (shed by a handshake rate or budget, or refused). */
  closedUnanswered: number;
  /** Connect errors (the port's or the address's connection cap). */
  refused: number;
}

/**
 * For `seconds`, keeps `inFlight` connections open from each of `sources` (local addresses such
 * as 127.0.0.2..127.0.0.11: every 127/8 address is local on Linux), each sending 64 random bytes
 * as act one and hanging up on act two or close. What an anonymous flooder pays: 64 bytes each.
 */
export async function handshakeFlood(options: {
  port: number;
  host?: string;
  sources: string[];
  inFlight: number;
  seconds: number;
}): Promise<HandshakeFloodResult> {
  const result: HandshakeFloodResult = { started: 0, answered: 0, closedUnanswered: 0, refused: 0 };
  const end = Date.now() + options.seconds * 1000;
  const one = (localAddress: string): Promise<void> =>
    new Promise((resolve) => {
      result.started++;
      let got = 0;
      let connected = false;
      const socket = net.connect(
        { port: options.port, host: options.host ?? '127.0.0.1', localAddress },
        () => {
          connected = true;
          socket.write(randomBytes(64));
        },
      );
      socket.on('data', (chunk: Buffer) => {
        got += chunk.length;
        if (got >= ACT_TWO_BYTES) socket.destroy();
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        if (got >= ACT_TWO_BYTES) result.answered++;
        else if (connected) result.closedUnanswered++;
        else result.refused++;
        resolve();
      });
    });
  const lane = async (source: string): Promise<void> => {
    while (Date.now() < end) await one(source);
  };
  await Promise.all(
    options.sources.flatMap((source) => Array.from({ length: options.inFlight }, () => lane(source))),
  );
  return result;
}

export interface ChannelFloodResult {
  /** Channels the pool opened. */
  opened: number;
  /** Opens refused, by error code. */
  refused: Record<string, number>;
  /** The connections used (close them with closeAll). */
  clients: Sv2TestClient[];
}

/**
 * Opens up to `channels` standard channels as `login` from one address, `perConnection` on each
 * V2 connection (a new connection when one is refused or full), stopping early after `stopAfter`
 * refusals in a row.
 */
export async function channelFlood(options: {
  port: number;
  authority: Uint8Array;
  login: string;
  channels: number;
  perConnection: number;
  stopAfter?: number;
}): Promise<ChannelFloodResult> {
  const result: ChannelFloodResult = { opened: 0, refused: {}, clients: [] };
  let inARow = 0;
  let client: Sv2TestClient | undefined;
  let onThis = 0;
  for (let i = 0; i < options.channels && inARow < (options.stopAfter ?? 64); i++) {
    if (!client || onThis >= options.perConnection) {
      client = await Sv2TestClient.connect(options.port, options.authority);
      await client.setup();
      result.clients.push(client);
      onThis = 0;
    }
    onThis++;
    const opened = await client.open('standard', options.login);
    if (opened.ok) {
      result.opened++;
      inARow = 0;
    } else {
      result.refused[opened.errorCode] = (result.refused[opened.errorCode] ?? 0) + 1;
      inARow++;
      onThis = options.perConnection; // the next open on a fresh connection
    }
  }
  return result;
}

/** Closes a flood's connections. */
export function closeAll(result: ChannelFloodResult): void {
  for (const client of result.clients) client.close();
}
