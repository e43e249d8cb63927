// Child-process plumbing shared by the dev chains: free ports, a line reader for a child's
// "ready" message, log forwarding, and a stop that waits for the process to be really gone.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import net from 'node:net';
import type { Logger } from 'pino';

/**
 * Ports this process handed out lately. Dev chains start side by side and a node binds its port
 * seconds after it was picked (monerod's ZMQ port ~10 s later), so the OS may offer a released
 * port again meanwhile: it did, to kaspad, and monerod then failed with "Address already in use".
 */
const handedOut = new Set<number>();
const HANDED_OUT_KEPT = 1_024;

/** One bind to port 0 on 127.0.0.1: the port the OS gave, released. */
function osFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** A free TCP port on 127.0.0.1 that this process has not handed out lately. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 32; attempt++) {
    const port = await osFreePort();
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (handedOut.size > HANDED_OUT_KEPT) handedOut.delete(handedOut.values().next().value as number);
    return port;
  }
  throw new Error('no free port the dev chains have not taken');
}

export interface ManagedChild {
  proc: ChildProcess;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  exited: Promise<number | string>;
  hasExited(): boolean;
  /** Polite stop (closes stdin, then SIGTERM), SIGKILL after graceMs; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
}

/** Spawns a child that lives on a stdin pipe: when this process dies, the pipe closes. */
export function spawnManaged(
  command: string,
  args: string[],
  logger: Logger,
  options: SpawnOptions = {},
): ManagedChild {
  const proc = spawn(command, args, { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
  let done = false;
  const exited = new Promise<number | string>((resolve) => {
    proc.on('exit', (code, signal) => {
      done = true;
      resolve(code ?? signal ?? 'unknown');
    });
    proc.on('error', (err) => {
      logger.error({ err }, 'child process failed to start');
      done = true;
      resolve('spawn-error');
    });
  });
  proc.stdin?.on('error', () => undefined);
  forwardLines(proc.stderr, (line) => logger.debug({ stream: 'stderr' }, line));
  const stop = async (graceMs = 10_000): Promise<void> => {
    if (done) return;
    proc.stdin?.end();
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  return { proc, exited, hasExited: () => done, stop };
}

export function forwardLines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  if (!stream) return;
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line) onLine(line);
      newline = buffered.indexOf('\n');
    }
  });
}

/** Waits for the first stdout line that parses as JSON with `ready: true`. */
export function waitForReadyLine<T>(child: ManagedChild, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`child did not become ready within ${timeoutMs} ms`)),
      timeoutMs,
    );
    forwardLines(child.proc.stdout, (line) => {
      try {
        const parsed = JSON.parse(line) as { ready?: boolean };
        if (parsed.ready === true) {
          clearTimeout(timer);
          resolve(parsed as T);
        }
      } catch {
        // not our message; ignore
      }
    });
    void child.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`child exited (${code}) before it was ready`));
    });
  });
}

/** Direct children of `pid` (Linux /proc; empty elsewhere). */
export function childPids(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ... — comm may contain spaces, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** The pid of a managed child plus its own children (e.g. supervisor + litecoind). */
export function processTree(child: ManagedChild): number[] {
  const pid = child.proc.pid;
  if (pid === undefined || child.hasExited()) return [];
  return [pid, ...childPids(pid)];
}

export interface NotifyGate {
  /** The file whose existence lets the blocknotify command run. */
  file: string;
  open(): Promise<void>;
  remove(): Promise<void>;
}

/**
 * A closed gate for blocknotify: the hundreds of blocks a dev chain mines at start would each
 * spawn a notification process; the command runs only once open() has created the file.
 */
export async function createNotifyGate(dir?: string): Promise<NotifyGate> {
  const own = dir === undefined ? await mkdtemp(path.join(tmpdir(), 'manjam-notify-')) : undefined;
  const file = path.join(dir ?? own!, 'blocknotify-open');
  await rm(file, { force: true });
  return {
    file,
    open: () => writeFile(file, 'open\n'),
    remove: () => (own ? rm(own, { recursive: true, force: true }) : rm(file, { force: true })),
  };
}

/** Wraps a shell command so that it only runs while the gate file exists. */
export function gatedCommand(gate: NotifyGate, command: string): string {
  return `test -e '${gate.file.replace(/'/g, `'\\''`)}' && ${command}`;
}
