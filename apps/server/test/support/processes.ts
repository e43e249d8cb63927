// Test support for tests that run the pool as real processes: spawn one with its output collected,
// wait for a line, list the processes of its group, check whether a port still answers.
import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { connect } from 'node:net';

export interface WatchedProcess {
  child: ChildProcess;
  /** stdout + stderr so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output (waiting for it up to timeoutMs). */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code (128 + signal number when a signal ended it). */
  exited: Promise<number>;
}

const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

export function startWatched(command: string, args: string[], options: SpawnOptions): WatchedProcess {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const append = (chunk: Buffer) => {
    text += chunk.toString('utf8');
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<number>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? 128 + (signal ? (SIGNAL_NUMBERS[signal] ?? 0) : 0)));
  });
  const waitFor = async (pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = text.match(pattern);
      if (match) return match;
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`process exited before ${String(pattern)}:\n${text}`);
      if (Date.now() > deadline) throw new Error(`no ${String(pattern)} within ${timeoutMs} ms:\n${text}`);
      await sleep(100);
    }
  };
  return { child, output: () => text, waitFor, exited };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Pids of the live processes in a process group (zombies excluded). */
export function processGroup(pgid: number): number[] {
  const table = execFileSync('ps', ['-eo', 'pid=,pgid=,stat='], { encoding: 'utf8' });
  return table
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, group, stat]) => pid && Number(group) === pgid && !stat?.startsWith('Z'))
    .map(([pid]) => Number(pid));
}

/** Polls `check` until it returns true; resolves with the seconds it took, or rejects after timeoutMs. */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
  return (Date.now() - started) / 1000;
}

/** True when something accepts a TCP connection on 127.0.0.1:port. */
export function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
