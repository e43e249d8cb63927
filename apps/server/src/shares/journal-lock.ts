import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

/** Lock files this process holds (a second journal on the same directory in one process is refused too). */
const held = new Set<string>();

/** A process's start time in clock ticks since boot (/proc/<pid>/stat field 22); undefined off Linux. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses) start at field 3.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * True when the process that wrote the lock still runs. A pid alone is not enough: in a
 * container the restarted pool often gets the same pid, and another process may reuse it, so
 * the lock also names the holder's start time and a different start time means a dead holder.
 */
function alive(pid: number, started: string | undefined, path: string): boolean {
  if (pid === process.pid) return held.has(path);
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = started === undefined ? undefined : startTime(pid);
  return now === undefined || now === started;
}

function holder(path: string): { pid: number; started: string | undefined } | undefined {
  try {
    const [pidText, started] = readFileSync(path, 'utf8').trim().split(' ');
    const pid = Number.parseInt(pidText ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? { pid, started } : undefined;
  } catch {
    return undefined;
  }
}

function tryCreate(path: string): boolean {
  try {
    const fd = openSync(path, 'wx');
    writeSync(fd, `${process.pid} ${startTime(process.pid) ?? ''}`.trim() + '\n');
    closeSync(fd);
    held.add(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  }
}

/**
 * A lock file (pid and start time) that makes a journal directory belong to one live process: a
 * second Stratum process started on the same dataDir and instance id refuses to start instead of
 * replaying (and deleting) the first one's segments. A lock left by a dead process is taken over.
 */
export function acquireLock(path: string): void {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(path)) return;
    const owner = holder(path);
    if (owner && alive(owner.pid, owner.started, path)) {
      throw new Error(
        `the share journal ${path} is held by running process ${owner.pid}: another Stratum process uses this dataDir ` +
          'with the same stratum.instanceId (give each process its own instanceId, or stop the other one)',
      );
    }
    try {
      unlinkSync(path);
    } catch {
      // Another process took it over first: the next attempt sees its pid.
    }
  }
  throw new Error(`could not take the share journal lock ${path}`);
}

/** Removes the lock if this process holds it. */
export function releaseLock(path: string): void {
  if (!held.delete(path) || holder(path)?.pid !== process.pid) return;
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
