// The control socket: how `manjam operator …`, `payout-run …` and `block-recredit …` reach a
// running pool whose embedded database they cannot open (one process per PGlite data directory, db/data-dir-lock.ts).
// The process holding that database listens on a Unix socket inside `<dataDir>/control/`, a
// directory only its owner may enter (0700), so whoever may run commands on the socket could
// already read and write the database files. The CLI sends one line, `{"command","args"}`; the
// pool runs the command (control/db-commands.ts, the very code the CLI runs on a database it opened
// itself) and answers one JSON line per printed line, `{"out"}` or `{"err"}`, then `{"exit"}`.
// On PostgreSQL the CLI opens the database beside the pool and no socket is needed.
import { chmod, mkdir, rm } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Database } from '../db/index.js';
import type { Logger } from '../logger.js';
import { isDbCommand, parseDbCommand, type CommandIo } from './db-commands.js';

/** A request line longer than this is refused (a command and an email fit in far less). */
const MAX_REQUEST_BYTES = 16 * 1024;
/** Unix socket paths longer than this cannot be bound on Linux (sun_path is 108 bytes). */
const MAX_SOCKET_PATH = 107;

/** A request line: one command and its arguments (at most 8). */
interface ControlRequest {
  command: string;
  args: string[];
}
/** An answer line: a printed line, an error line, or the command's exit code (the last line). */
type ControlAnswer = { out: string } | { err: string } | { exit: number };

function asRequest(value: unknown): ControlRequest | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { command, args } = value as Record<string, unknown>;
  if (typeof command !== 'string' || !Array.isArray(args) || args.length > 8) return undefined;
  return args.every((arg): arg is string => typeof arg === 'string') ? { command, args } : undefined;
}

function asAnswer(value: unknown): ControlAnswer | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { out, err, exit } = value as Record<string, unknown>;
  if (typeof out === 'string') return { out };
  if (typeof err === 'string') return { err };
  if (typeof exit === 'number' && Number.isInteger(exit)) return { exit };
  return undefined;
}

/** Where the pool using the embedded database in `dataDir` listens. */
export function controlSocketPath(dataDir: string): string {
  return join(dataDir, 'control', 'pglite.sock');
}

export interface ControlSocket {
  close(): Promise<void>;
}

/**
 * Listens on the control socket for the embedded database in `dataDir`; undefined (with a warning)
 * when the path is too long for a Unix socket. The caller holds the data directory's lock, so a
 * socket file left there is a dead process's and is replaced.
 */
export async function startControlSocket(options: {
  dataDir: string;
  db: Database;
  logger: Logger;
}): Promise<ControlSocket | undefined> {
  const { dataDir, db, logger } = options;
  const path = controlSocketPath(dataDir);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    logger.warn({ path }, 'control socket path too long: manjam commands need the pool stopped');
    return undefined;
  }
  const dir = join(dataDir, 'control');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  await rm(path, { force: true });
  const server = createServer((socket) => serve(socket, db, logger));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  logger.info(
    { path },
    'control socket listening (manjam operator / payout-run / block-recredit on a running pool)',
  );
  return { close: () => closeServer(server, path) };
}

async function closeServer(server: Server, path: string): Promise<void> {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(path, { force: true });
}

function serve(socket: Socket, db: Database, logger: Logger): void {
  let buffered = '';
  let started = false;
  const send = (answer: ControlAnswer) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(answer)}\n`);
  };
  const finish = (code: number) => {
    send({ exit: code });
    socket.end();
  };
  socket.setEncoding('utf8');
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: string) => {
    if (started) return;
    buffered += chunk;
    const newline = buffered.indexOf('\n');
    if (newline < 0) {
      if (Buffer.byteLength(buffered) > MAX_REQUEST_BYTES) {
        started = true;
        send({ err: 'manjam: control request too long' });
        finish(2);
      }
      return;
    }
    started = true;
    const io: CommandIo = { out: (line) => send({ out: line }), err: (line) => send({ err: line }) };
    run(buffered.slice(0, newline), db, logger, io).then(finish, (error: unknown) => {
      logger.error({ err: error }, 'control socket command failed');
      io.err(`manjam: the command failed in the running pool: ${(error as Error).message}`);
      finish(1);
    });
  });
}

async function run(line: string, db: Database, logger: Logger, io: CommandIo): Promise<number> {
  const request = asRequest(safeJson(line));
  if (!request) {
    io.err('manjam: malformed control request (one JSON line: {"command", "args"})');
    return 2;
  }
  if (!isDbCommand(request.command)) {
    io.err(`manjam: the running pool does not take the command "${request.command}"`);
    return 2;
  }
  const work = parseDbCommand(request.command, request.args);
  if ('usage' in work) {
    io.err(work.usage);
    return 2;
  }
  logger.warn({ command: request.command, by: 'control socket' }, 'manjam command run by the pool');
  return work(db, logger, io);
}

/**
 * Runs a command in the pool listening on `path`: its exit code, with its lines passed to `io`;
 * undefined when no pool listens there (no socket, or a dead one's).
 */
export async function askRunningPool(
  path: string,
  command: string,
  args: readonly string[],
  io: CommandIo,
): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let exit: number | undefined;
    let connected = false;
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify({ command, args })}\n`);
    });
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const answer = asAnswer(safeJson(buffered.slice(0, newline)));
        buffered = buffered.slice(newline + 1);
        if (!answer) continue;
        if ('out' in answer) io.out(answer.out);
        else if ('err' in answer) io.err(answer.err);
        else exit = answer.exit;
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === 'ENOENT' || error.code === 'ECONNREFUSED')) resolve(undefined);
      else reject(error);
    });
    socket.on('close', () => {
      if (!connected) return;
      if (exit === undefined)
        reject(new Error('the running pool closed the control socket without an answer'));
      else resolve(exit);
    });
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
