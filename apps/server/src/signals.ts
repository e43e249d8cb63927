// How `manjam start` (and `manjam devchain`) stop: the first SIGINT/SIGTERM asks for a clean stop
// (Stratum clients told to reconnect, shares flushed, database closed, dev chains stopped); a
// second one, at least a second later, means "stop now" and exits at once. A signal that arrives
// twice within that second (Ctrl+C reaches both `npm start`'s forwarder and the pool, which
// forwards it again) counts once.

export const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type ShutdownSignal = (typeof SHUTDOWN_SIGNALS)[number];

/** The exit code of a process stopped by a signal it did not handle cleanly (shell convention). */
export const SIGNAL_EXIT_CODES: Record<ShutdownSignal, number> = { SIGINT: 130, SIGTERM: 143 };

export const DUPLICATE_SIGNAL_MS = 1_000;

/**
 * How long a clean stop may take after the first signal before the process exits anyway (logged,
 * exit code 1): whatever a part is waiting for (a flush under load, a node that does not answer),
 * one signal always stops the pool. Dev-chain nodes still running then stop on their own when
 * their stdin pipe closes (devchain/child.ts).
 */
export const STOP_DEADLINE_MS = 15_000;

let requested = false;

/**
 * Whether this process has been asked to stop (a first SIGINT/SIGTERM reached it). Dev-chain
 * supervisors restart nothing after it: a signal sent to the whole process group (Ctrl+C,
 * systemd, `kill -- -pgid`) also stops the nodes, and restarting them would keep a stopping pool
 * busy (monerod's RandomX start-up alone takes a core).
 */
export function shutdownRequested(): boolean {
  return requested;
}

export interface SignalOptions {
  /** Called on the first signal. */
  onFirst: (signal: ShutdownSignal) => void;
  /** Called on a later signal (not a duplicate of the first): stop now. */
  onSecond: (signal: ShutdownSignal) => void;
  now?: () => number;
  target?: Pick<NodeJS.Process, 'on' | 'off'>;
}

/** Installs the handlers; returns a function that removes them. */
export function handleShutdownSignals(options: SignalOptions): () => void {
  const now = options.now ?? Date.now;
  const target = options.target ?? process;
  let firstAt: number | undefined;
  const onSignal = (signal: ShutdownSignal): void => {
    if (firstAt === undefined) {
      firstAt = now();
      if (target === process) requested = true;
      options.onFirst(signal);
    } else if (now() - firstAt >= DUPLICATE_SIGNAL_MS) {
      options.onSecond(signal);
    }
  };
  for (const signal of SHUTDOWN_SIGNALS) target.on(signal, onSignal);
  return () => {
    for (const signal of SHUTDOWN_SIGNALS) target.off(signal, onSignal);
  };
}
