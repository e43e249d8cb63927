// Writing to a miner, for every Stratum dialect: a miner that stops reading is dropped rather than
// buffered without bound.
import type net from 'node:net';

/** Past this many bytes waiting to be sent, a miner that does not read is dropped. */
export const MAX_WRITE_BACKLOG = 512 * 1024;

/** Writes `line`, unless the socket's backlog is over MAX_WRITE_BACKLOG: then `drop` instead. */
export function writeLine(socket: net.Socket, line: string, drop: () => void): void {
  if (socket.writableLength > MAX_WRITE_BACKLOG) drop();
  else socket.write(line);
}
