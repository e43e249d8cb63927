// CPU time of processes read from /proc/<pid>/stat (Linux): the pool process from outside (all its
// threads), any other pool given by its pid, and the PostgreSQL processes that serve the pool.
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on every Linux the bench runs on). */
const TICK_US = 1e6 / 100;

interface ProcStat {
  comm: string;
  /** utime + stime, microseconds (all threads). */
  ownUs: number;
  /** cutime + cstime: children waited for (PostgreSQL's postmaster collects its ended backends). */
  childrenUs: number;
}

function readStat(pid: number, tid?: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid ..." — comm may hold spaces and parentheses: split after the last ')'.
  const close = text.lastIndexOf(')');
  const comm = text.slice(text.indexOf('(') + 1, close);
  const fields = text.slice(close + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime 15, cutime 16, cstime 17.
  const at = (field: number) => Number(fields[field - 3] ?? 0);
  return { comm, ownUs: (at(14) + at(15)) * TICK_US, childrenUs: (at(16) + at(17)) * TICK_US };
}

/** CPU time (user + system, all threads) of a process, microseconds; undefined once it is gone. */
export function processCpuUs(pid: number): number | undefined {
  return readStat(pid)?.ownUs;
}

/** CPU time (user + system) of each thread of a process (thread id -> microseconds); empty once it is gone. */
export function threadCpuUs(pid: number): Map<number, number> {
  const threads = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    const us = readStat(pid, Number(tid))?.ownUs;
    if (us !== undefined) threads.set(Number(tid), us);
  }
  return threads;
}

/** CPU per thread between two threadCpuUs readings: the main thread, the `busiest` other threads, the rest (µs). */
export function splitThreadCpu(
  pid: number,
  before: Map<number, number>,
  after: Map<number, number>,
  busiest: number,
): { main: number; busiest: number; other: number } {
  const deltas = [...after].map(([tid, us]) => ({ tid, us: us - (before.get(tid) ?? 0) }));
  const others = deltas.filter((d) => d.tid !== pid).sort((a, b) => b.us - a.us);
  const sum = (list: { us: number }[]) => list.reduce((n, d) => n + d.us, 0);
  return {
    main: deltas.find((d) => d.tid === pid)?.us ?? 0,
    busiest: sum(others.slice(0, busiest)),
    other: sum(others.slice(busiest)),
  };
}

/** CPU time of every PostgreSQL process on this machine, ended backends included (other clients' too). */
export function allPostgresCpuUs(): number {
  let total = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat?.comm === 'postgres') total += stat.ownUs + stat.childrenUs;
  }
  return total;
}

/**
 * The CPU of the PostgreSQL backends serving one client, found by its application_name (the pool
 * process sets PGAPPNAME) and sampled often enough that a backend that ends between samples loses
 * at most one interval. Only backends: the WAL writer and checkpointer work for everyone.
 */
export class BackendCpu {
  private readonly seen = new Map<number, { first: number; last: number }>();
  private timer: NodeJS.Timeout | undefined;
  private sampling: Promise<void> = Promise.resolve();
  /** The next sample is the baseline: backends it finds count from their CPU time then. */
  private baseline = false;

  private constructor(
    private readonly client: pg.Client,
    private readonly applicationName: string,
  ) {}

  static async open(url: string, applicationName: string): Promise<BackendCpu> {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    await client.connect();
    return new BackendCpu(client, applicationName);
  }

  /** Samples now and then every `everyMs` until stopped. */
  start(everyMs = 250): void {
    this.seen.clear();
    this.baseline = true;
    void this.sample();
    this.timer = setInterval(() => void this.sample(), everyMs);
  }

  /** Stops sampling after a last sample; answers the backends' CPU since start, microseconds. */
  async stop(): Promise<number> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sample();
    let total = 0;
    for (const { first, last } of this.seen.values()) total += last - first;
    return total;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sampling;
    await this.client.end();
  }

  private sample(): Promise<void> {
    this.sampling = this.sampling.then(async () => {
      const result = await this.client
        .query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
          this.applicationName,
        ])
        .catch(() => ({ rows: [] as { pid: number }[] }));
      const fresh = this.baseline;
      this.baseline = false;
      for (const { pid } of result.rows) {
        const us = processCpuUs(pid);
        if (us === undefined) continue;
        const known = this.seen.get(pid);
        // A backend already running at the first sample counts from then; a later one from zero.
        if (known) known.last = us;
        else this.seen.set(pid, { first: fresh ? us : 0, last: us });
      }
    });
    return this.sampling;
  }
}
