// The RandomX pools of this process's XMR ports, for /metrics (http/metrics-stratum.ts writes them
// as manjam_randomx_*{port}): start.ts lists each port's pool while the port is open. The native
// caches are the process's (packages/randomx/src/addon.c), so the list is the process's too.
import type { RandomXFigures, RandomXPool } from '@manjam/randomx';

const open = new Map<number, Pick<RandomXPool, 'figures'>>();

/** Lists `randomx` under its port until the returned function is called. */
export function listRandomXPool(port: number, randomx: Pick<RandomXPool, 'figures'>): () => void {
  open.set(port, randomx);
  return () => {
    if (open.get(port) === randomx) open.delete(port);
  };
}

/** The figures of every listed pool, by port. */
export function randomxFiguresByPort(): { port: number; figures: RandomXFigures }[] {
  return [...open].map(([port, randomx]) => ({ port, figures: randomx.figures() }));
}
