// A load-generator thread: owns a slice of the connections, mines their shares before the timed
// phase, then replays them either as fast as the pool answers (max: `depth` submits in flight
// per connection) or at a fixed rate spread round-robin over its connections.
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { algorithmOf } from '@manjam/protocol';
import { LoadConnection, type ConnectionEvents } from './load-connection.js';
import { mineShares, unminedShares } from './shares.js';
import type { RunResult, WorkerCommand, WorkerReply, WorkerSetup } from './messages.js';

const setup = workerData as WorkerSetup;
const algorithm = algorithmOf(setup.coin);
const connections: LoadConnection[] = [];
/** The login each connection authorized with. */
const logins = new Map<LoadConnection, string>();
let opened = 0;
const CONNECT_BATCH = 250;
const DRAIN_MS = 5_000;

function reply(message: WorkerReply, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(message, transfer);
}

async function connect(count: number): Promise<void> {
  let failed = 0;
  let firstError: string | undefined;
  const events: ConnectionEvents = { onReply: (c, ms, ok, code) => current?.onReply(c, ms, ok, code) };
  for (let i = 0; i < count; i += CONNECT_BATCH) {
    const batch = Array.from({ length: Math.min(CONNECT_BATCH, count - i) }, async () => {
      const login = setup.distinctWorkers ? `${setup.login}${threadId}_${opened++}` : setup.login;
      const connection = await LoadConnection.open(setup.host, setup.port, events);
      await connection.handshake(login);
      logins.set(connection, login);
      connections.push(connection);
    });
    for (const outcome of await Promise.allSettled(batch)) {
      if (outcome.status === 'rejected') {
        failed++;
        firstError ??= String((outcome.reason as Error).message);
      }
    }
  }
  reply({ type: 'connected', ok: connections.length, failed, firstError });
}

function prepare(perConnection: number, unmined: boolean): void {
  const started = performance.now();
  let shares = 0;
  let tried = 0;
  for (const c of connections) {
    if (!c.notifyParams) throw new Error('a connection has no job');
    const job = {
      notifyParams: c.notifyParams,
      extranonce1: c.extranonce1,
      extranonce2Size: c.extranonce2Size,
      difficulty: c.difficulty,
    };
    const login = logins.get(c) ?? setup.login;
    const mined = unmined
      ? unminedShares(job, login, perConnection)
      : mineShares(job, algorithm, login, perConnection);
    c.shares = mined.params;
    shares += mined.params.length;
    tried += mined.tried;
  }
  reply({ type: 'prepared', shares, tried, seconds: (performance.now() - started) / 1000 });
}

/** Counters of one timed phase. */
class Phase {
  readonly latencies: Float64Array;
  answered = 0;
  sent = 0;
  accepted = 0;
  acceptedInTime = 0;
  starved = 0;
  readonly rejected: Record<string, number> = {};
  open = true;
  /** Max mode: a reply frees a slot on its connection. */
  refill: ((c: LoadConnection) => void) | undefined;

  constructor(capacity: number) {
    this.latencies = new Float64Array(Math.max(1, capacity));
  }

  onReply(c: LoadConnection, ms: number, ok: boolean, code: number): void {
    if (this.answered < this.latencies.length) this.latencies[this.answered] = ms;
    this.answered++;
    if (ok) {
      this.accepted++;
      if (this.open) this.acceptedInTime++;
    } else {
      this.rejected[String(code)] = (this.rejected[String(code)] ?? 0) + 1;
    }
    this.refill?.(c);
  }

  submit(c: LoadConnection): boolean {
    if (!c.submitNext()) {
      this.starved++;
      return false;
    }
    this.sent++;
    return true;
  }
}

let current: Phase | undefined;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function drain(): Promise<number> {
  const until = performance.now() + DRAIN_MS;
  const waiting = () => connections.reduce((n, c) => n + c.inflight.size, 0);
  while (waiting() > 0 && performance.now() < until) await sleep(20);
  return waiting();
}

/** As fast as the pool answers: each connection keeps `depth` submits in flight. */
async function runMax(phase: Phase, seconds: number, depth: number): Promise<void> {
  phase.refill = (c) => {
    while (phase.open && c.inflight.size < depth && phase.submit(c));
  };
  for (const c of connections) phase.refill(c);
  await sleep(seconds * 1000);
}

/** A fixed rate (shares/s for this thread), round-robin over the connections, checked every ms. */
async function runRate(phase: Phase, seconds: number, rate: number): Promise<void> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let next = 0;
  for (let now = started; now < deadline; now = performance.now()) {
    const due = Math.floor((rate * (now - started)) / 1000) - phase.sent - phase.starved;
    for (let i = 0; i < due && connections.length > 0; i++)
      phase.submit(connections[next++ % connections.length] as LoadConnection);
    await sleep(1);
  }
}

async function run(command: Extract<WorkerCommand, { type: 'run' }>): Promise<void> {
  const capacity = connections.reduce((n, c) => n + c.shares.length, 0);
  const phase = new Phase(capacity);
  current = phase;
  const started = performance.now();
  if (command.mode === 'max') await runMax(phase, command.seconds, command.depth);
  else await runRate(phase, command.seconds, command.rate);
  phase.open = false;
  const seconds = (performance.now() - started) / 1000;
  const unanswered = await drain();
  current = undefined;
  const latencies = phase.latencies.slice(0, Math.min(phase.answered, phase.latencies.length));
  const result: RunResult = {
    type: 'ran',
    seconds,
    sent: phase.sent,
    acceptedInTime: phase.acceptedInTime,
    accepted: phase.accepted,
    rejected: phase.rejected,
    unanswered,
    starved: phase.starved,
    latencies,
  };
  reply(result, [latencies.buffer]);
}

function close(): void {
  for (const c of connections) c.close();
  connections.length = 0;
  logins.clear();
  reply({ type: 'closed' });
}

async function handle(command: WorkerCommand): Promise<void> {
  if (command.type === 'connect') await connect(command.count);
  else if (command.type === 'prepare') prepare(command.perConnection, command.unmined ?? false);
  else if (command.type === 'run') await run(command);
  else if (command.type === 'tip') {
    const times = Float64Array.from(connections, (c) => c.cleanJobAt.get(command.prevhash) ?? NaN);
    reply({ type: 'tip', times }, [times.buffer]);
  } else close();
}

parentPort?.on('message', (command: WorkerCommand) => {
  handle(command).catch((error: unknown) =>
    reply({ type: 'error', message: (error as Error).stack ?? String(error) }),
  );
});
