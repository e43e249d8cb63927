// The configuration of a process that loads no zod (the Stratum role): read and checked in a child
// process of the same command (`manjam check-config --emit`), from the same file, variables and
// region, with the same one-line messages, and handed back whole (v8.serialize keeps its bigints).
// zod and the configuration's schemas are loaded by the child only; this process holds the parsed
// configuration and nothing of them.
import { spawnSync } from 'node:child_process';
import { deserialize } from 'node:v8';
import { ConfigError, type Config } from './core.js';

/** Node flags the child does not take over: a CPU profile or an inspector of its own. */
const NOT_INHERITED = /^--(cpu-prof|heap-prof|inspect)/;

/** The configuration `manjam check-config --emit <args>` reads; a ConfigError with its message where it refuses it. */
export function loadConfigApart(args: readonly string[]): Config {
  const entry = process.argv[1];
  if (!entry) throw new Error('reading the configuration apart needs the command this process runs');
  const child = spawnSync(
    process.execPath,
    [
      ...process.execArgv.filter((flag) => !NOT_INHERITED.test(flag)),
      entry,
      'check-config',
      '--emit',
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (child.error) throw child.error;
  if (child.status === 0) return deserialize(Buffer.from(child.stdout, 'base64')) as Config;
  const message = child.stderr.trim();
  if (child.status === 2 && message !== '') throw new ConfigError(message);
  throw new Error(
    `reading the configuration in a child process failed (${child.signal ?? `exit ${String(child.status)}`}): ${message}`,
  );
}
