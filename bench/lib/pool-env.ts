// The environment `npm start` gives the pool process (scripts/pool-env.json): the bench's pool
// processes run with it too, so their memory figures are the production process's.
import { readFileSync } from 'node:fs';

export const POOL_PROCESS_ENV = JSON.parse(
  readFileSync(new URL('../../scripts/pool-env.json', import.meta.url), 'utf8'),
) as Record<string, string>;

/** This process's environment over the pool's (a variable set by hand wins). */
export const poolProcessEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...POOL_PROCESS_ENV,
  ...process.env,
  ...extra,
});
