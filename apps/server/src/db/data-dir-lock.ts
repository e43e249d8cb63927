// One process per embedded database: PGlite is PostgreSQL compiled into this process, so a second
// process opening the same data directory (an operator command while the pool runs, two pools
// started by mistake) would write the same files without PostgreSQL's own locking. The first
// process writes its pid into `<data dir>.lock` beside the directory (not inside it, where initdb
// wants an empty directory); others are refused while that process lives. A lock left by a
// process that died (kill -9) is taken over.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `the embedded database ${dir} is in use by process ${pid}: stop the pool first (PGlite serves one process), or use PostgreSQL (DATABASE_URL) to run commands beside a running pool`,
    );
    this.name = 'DataDirInUseError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the data directory for this process; answers the function that gives it back. */
export function lockDataDir(dir: string): () => void {
  const file = `${dir}.lock`;
  mkdirSync(dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder))
        throw new DataDirInUseError(dir, holder);
      // Left by a process that is gone (or unreadable): take it over.
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock the embedded database ${dir}`);
}
