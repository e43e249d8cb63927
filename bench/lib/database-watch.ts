// PostgreSQL's side of a phase: the CPU of the backends serving the pool (and of every postgres
// process on the machine, other clients included), and the rows the pool wrote per table.
import type { WriteCounts } from './counting-database.js';
import { POSTGRES_URL, type BenchDatabaseKind } from './database.js';
import { allPostgresCpuUs, BackendCpu } from './proc-cpu.js';
import { fixed, int, type Report } from './report.js';

export interface DatabaseCpu {
  /** CPU of the PostgreSQL backends serving the pool over the phase, microseconds. */
  backendCpuUs: number;
  /** CPU of every postgres process on the machine over the phase (other clients too), microseconds. */
  allPostgresCpuUs: number;
}

export class DatabaseWatch {
  private allBefore = 0;

  private constructor(private readonly backends: BackendCpu) {}

  /** Undefined on PGlite: the database then runs inside the pool process, its CPU counted as the pool's. */
  static async open(kind: BenchDatabaseKind, applicationName: string): Promise<DatabaseWatch | undefined> {
    if (kind !== 'postgres') return undefined;
    return new DatabaseWatch(await BackendCpu.open(POSTGRES_URL, applicationName));
  }

  begin(): void {
    this.allBefore = allPostgresCpuUs();
    this.backends.start();
  }

  async end(): Promise<DatabaseCpu> {
    const backendCpuUs = await this.backends.stop();
    return { backendCpuUs, allPostgresCpuUs: allPostgresCpuUs() - this.allBefore };
  }

  close(): Promise<void> {
    return this.backends.close();
  }
}

/** Microseconds per share as milliseconds per 1,000 shares. */
const per1000 = (us: number, shares: number) => (shares > 0 ? us / 1e3 / (shares / 1000) : 0);

/** Prints PostgreSQL's CPU beside the pool's (per 1,000 shares) and the rows the pool wrote. */
export function printDatabase(
  report: Report,
  cpu: DatabaseCpu | undefined,
  writes: WriteCounts,
  poolCpuUs: number,
  shares: number,
): void {
  if (cpu) {
    report.line(
      `  PostgreSQL CPU: the backends serving the pool ${fixed(cpu.backendCpuUs / 1e6)} CPU-s beside the pool's ${fixed(poolCpuUs / 1e6)} ` +
        `(${int((cpu.backendCpuUs / Math.max(1, poolCpuUs)) * 100)} %) = ${fixed(per1000(cpu.backendCpuUs, shares))} ms per 1,000 shares ` +
        `(pool: ${fixed(per1000(poolCpuUs, shares))} ms); all postgres processes on the machine ${fixed(cpu.allPostgresCpuUs / 1e6)} CPU-s (other clients included)`,
    );
  } else {
    report.line(
      '  PostgreSQL CPU: none (PGlite runs inside the pool process: its CPU is in the pool figure)',
    );
  }
  const rows = (table: string) => int(writes[table]?.rows ?? 0);
  const statements = (table: string) => int(writes[table]?.statements ?? 0);
  report.line(
    `  rows written for ${int(shares)} shares: workers ${rows('workers')} (${statements('workers')} statements), share_stats ${rows('share_stats')}, ` +
      `shares ${rows('shares')}, share_batches ${rows('share_batches')} (transactions of accepted shares)`,
  );
}
