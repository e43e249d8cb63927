import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

/** True when a process with this pid exists (EPERM: it exists but belongs to someone else). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holder(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A pid file that makes a journal directory belong to one live process: a second Stratum
 * process started on the same dataDir and instance id refuses to start instead of replaying
 * (and deleting) the first one's segments. A lock left by a process that died is taken over.
 */
export function acquireLock(path: string): void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = holder(path);
    if (pid !== undefined && alive(pid)) {
      throw new Error(
        `the share journal ${path} is held by running process ${pid}: another Stratum process uses this dataDir ` +
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
  if (holder(path) !== process.pid) return;
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
