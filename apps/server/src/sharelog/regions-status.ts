// `manjam regions status`: the state docs/REGIONS.md tells the operator to watch, read over the
// NATS client the pool already uses (no `nats` CLI to install): the core's share log stream and
// each region it sources (lag, last activity, errors), the accounting consumer's backlog, the job
// feed's last state message per coin, and on a regional node its own stream and whether the core
// answers. Read-only; connects once, asks, prints, exits (code 1 when the servers do not answer).
import { COINS } from '@manjam/protocol';
import { connect, type JetStreamManager, type NatsConnection } from 'nats';
import type { Config } from '../config/index.js';
import { regionalStreamName } from './stream.js';

type DistributedConfig = Config['distributed'];

/** How long each question may take: a status command must answer, not wait out an outage. */
const ASK_TIMEOUT_MS = 3_000;
const NANOS_PER_MS = 1_000_000;

const ago = (ms: number): string =>
  ms < 10_000 ? `${(ms / 1000).toFixed(1)} s ago` : `${Math.round(ms / 1000)} s ago`;

async function shareLogLines(
  jsm: JetStreamManager,
  config: DistributedConfig,
  now: number,
): Promise<string[]> {
  const info = await jsm.streams.info(config.stream);
  const lines = [
    `share log ${config.stream}: ${info.state.messages} messages, last ${
      // An empty stream reports the zero time (year 1) as its last message.
      info.state.last_seq > 0 ? ago(now - Date.parse(info.state.last_ts)) : 'never'
    }, replicas ${info.config.num_replicas}`,
  ];
  for (const source of info.sources ?? []) {
    const active = source.active >= 0 ? ago(source.active / NANOS_PER_MS) : 'never';
    const error = source.error ? `, error ${source.error.description}` : '';
    lines.push(`  source ${source.name}: lag ${source.lag} messages, last active ${active}${error}`);
  }
  if ((info.sources ?? []).length === 0) lines.push('  sources: none (direct mode: regions publish here)');
  try {
    const consumer = await jsm.consumers.info(config.stream, config.consumer);
    lines.push(
      `  accounting consumer ${config.consumer}: ${consumer.num_pending} not yet pulled, ${consumer.num_ack_pending} pulled and not yet stored`,
    );
  } catch {
    lines.push(
      `  accounting consumer ${config.consumer}: not created yet (no accounting process has started)`,
    );
  }
  return lines;
}

async function jobFeedLines(
  jsm: JetStreamManager,
  config: DistributedConfig,
  now: number,
): Promise<string[]> {
  try {
    await jsm.streams.info(config.jobsStream);
  } catch {
    return [`job feed ${config.jobsStream}: not created yet (no accounting leader publishes jobs)`];
  }
  const lines = [`job feed ${config.jobsStream}:`];
  for (const coin of COINS) {
    try {
      const last = await jsm.streams.getMessage(config.jobsStream, {
        last_by_subj: `manjam.jobs.${coin}.state`,
      });
      lines.push(`  ${coin}: last state ${ago(now - last.time.getTime())}`);
    } catch {
      lines.push(`  ${coin}: no state published`);
    }
  }
  return lines;
}

async function manager(nc: NatsConnection, domain: string | undefined): Promise<JetStreamManager> {
  return nc.jetstreamManager({
    ...(domain === undefined ? {} : { domain }),
    checkAPI: false,
    timeout: ASK_TIMEOUT_MS,
  });
}

/** Prints the status through `print`; the exit code (0 when everything asked answered). */
export async function regionsStatus(config: Config, print: (line: string) => void): Promise<number> {
  const distributed = config.distributed;
  if (!distributed.natsUrl) {
    print(
      'regions status: no NATS URL (distributed.natsUrl / MANJAM_NATS_URL): this pool runs on one machine',
    );
    return 2;
  }
  const servers = distributed.natsUrl.split(',').map((s) => s.trim());
  let nc: NatsConnection;
  try {
    nc = await connect({
      servers,
      name: 'manjam-regions-status',
      timeout: ASK_TIMEOUT_MS,
      maxReconnectAttempts: 0,
    });
  } catch (error) {
    print(`regions status: no NATS server answers at ${servers.join(', ')} (${(error as Error).message})`);
    return 1;
  }
  const now = Date.now();
  let code = 0;
  try {
    print(`connected to ${nc.getServer()}`);
    const region = distributed.domain;
    if (region !== undefined) {
      const local = await manager(nc, region);
      const name = regionalStreamName(distributed, region);
      try {
        const info = await local.streams.info(name);
        print(
          `region ${region}: stream ${name} on its leaf, ${info.state.messages} messages, last sequence ${info.state.last_seq}`,
        );
      } catch (error) {
        code = 1;
        print(`region ${region}: stream ${name} not readable (${(error as Error).message})`);
      }
    }
    // The core's JetStream: its own domain from a leaf, the local one on the core's servers.
    const core = await manager(nc, region === undefined ? undefined : distributed.coreDomain);
    try {
      for (const line of await shareLogLines(core, distributed, now)) print(line);
      for (const line of await jobFeedLines(core, distributed, now)) print(line);
    } catch (error) {
      code = 1;
      print(`core (${distributed.coreDomain}): does not answer (${(error as Error).message})`);
    }
  } finally {
    await nc.close();
  }
  return code;
}
