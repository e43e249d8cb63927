// The device a worker runs on, as its mining software names itself at login, recorded for the
// workers screens (a worker's type is the owner's choice, else its agent's, else its algorithm's
// usual hardware: db/repositories/queries-activity.ts). Logins are gathered for a few seconds and
// written in one statement: a reconnect storm costs one write per interval, not one per login.
import type { DeviceType } from '@manjam/contract';
import { WorkerAgentsRepository, type WorkerAgent } from '../db/repositories/worker-agents.js';
import type { Queryable } from '../db/types.js';
import type { PoolEvents } from '../events.js';
import type { Logger } from '../logger.js';

/**
 * Software names (lower case, matched at the start of the agent or after a non-alphanumeric
 * character) by the device they run on. A name that runs on several (SRBMiner-MULTI: CPU and
 * GPU) says nothing.
 */
const AGENTS: Readonly<Record<DeviceType, readonly string[]>> = {
  gpu: [
    'xmrig-cuda',
    'xmrig-nvidia',
    'xmrig-amd',
    'xmr-stak-amd',
    'xmr-stak-nvidia',
    'lolminer',
    'bzminer',
    'teamredminer',
    'gminer',
    'nbminer',
    't-rex',
    'trex',
    'rigel',
    'wildrig',
    'ethminer',
    'miniz',
    'onezerominer',
    'nanominer',
    'kawpowminer',
    'sgminer',
  ],
  cpu: ['cpuminer', 'cpuminer-opt', 'cpuminer-multi', 'minerd', 'xmrig', 'xmr-stak-cpu', 'xmr-stak-rx'],
  asic: [
    'bmminer',
    'cgminer',
    'bosminer',
    'braiins',
    'btminer',
    'whatsminer',
    'antminer',
    'avalon',
    'iceriver',
    'goldshell',
    'innosilicon',
    'luxminer',
    'vnish',
    'bitaxe',
    'bitmain',
  ],
};
/** Longest names first, so "xmrig-cuda" is found before "xmrig". */
const BY_LENGTH = Object.entries(AGENTS)
  .flatMap(([type, names]) => names.map((name) => ({ name, type: type as DeviceType })))
  .sort((a, b) => b.name.length - a.name.length);

/** The device an agent string names ("cpuminer/2.5.1" -> cpu, "lolMiner 1.88" -> gpu), or null. */
export function deviceTypeOfAgent(agent: string): DeviceType | null {
  const text = agent.toLowerCase();
  for (const { name, type } of BY_LENGTH) {
    const at = text.indexOf(name);
    if (at < 0) continue;
    if (at > 0 && /[a-z0-9]/.test(text[at - 1] ?? '')) continue;
    return type;
  }
  return null;
}

/** How long logins wait to be written together. */
export const AGENT_FLUSH_MS = 5_000;

export class WorkerAgentRecorder {
  private readonly pending = new Map<string, WorkerAgent>();
  private readonly repository: WorkerAgentsRepository;
  private readonly timer: NodeJS.Timeout;
  private readonly unsubscribe: () => void;

  constructor(
    db: Queryable,
    events: PoolEvents,
    private readonly logger: Logger,
  ) {
    this.repository = new WorkerAgentsRepository(db);
    this.unsubscribe = events.on('worker.connected', (e) => this.seen(e));
    this.timer = setInterval(() => void this.flush(), AGENT_FLUSH_MS);
    this.timer.unref();
  }

  seen(e: { payeeKey: string; worker: string; agent: string }, at = new Date()): void {
    const agent = e.agent.trim().slice(0, 128);
    if (!agent) return;
    this.pending.set(`${e.payeeKey}\n${e.worker}`, {
      payeeKey: e.payeeKey,
      worker: e.worker,
      agent,
      deviceType: deviceTypeOfAgent(agent),
      seenAt: at,
    });
  }

  /** Writes what was gathered; a failed write is logged and dropped (an agent is a hint, not money). */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending.clear();
    await this.repository
      .record(batch)
      .catch((error: unknown) =>
        this.logger.warn({ err: error, workers: batch.length }, 'could not record miner agents'),
      );
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.unsubscribe();
    await this.flush();
  }
}
