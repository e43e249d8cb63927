// The JetStream share log's names and stream: one stream holds every region's accepted shares,
// reject counts and found blocks, one subject per kind, coin and region.
import {
  connect,
  DiscardPolicy,
  nanos,
  RetentionPolicy,
  StorageType,
  type ConnectionOptions,
  type JetStreamManager,
  type NatsConnection,
  type StreamConfig,
  type StreamInfo,
  type StreamSource,
} from 'nats';
import type { CoinId, Config } from '../config/index.js';
import type { Logger } from '../logger.js';

export type DistributedConfig = Config['distributed'];

/** What a share log message carries (records in the share journal's line format, shares/batch.ts). */
export const SHARE_LOG_KINDS = ['shares', 'rejects', 'blocks'] as const;
export type ShareLogKind = (typeof SHARE_LOG_KINDS)[number];

/** manjam.<kind>.<coin>.<region> */
export function shareLogSubject(kind: ShareLogKind, coin: CoinId, region: string): string {
  return `manjam.${kind}.${coin}.${region}`;
}

/**
 * The subject a node publishes to: on the core's stream directly, or (a node with its own leaf
 * server, `domain` set) on its regional stream, whose subjects are its own (manjam-<domain>.…) so
 * that neither stream ever captures the other's messages across the leaf link.
 */
export function publishSubject(config: DistributedConfig, kind: ShareLogKind, coin: CoinId): string {
  const subject = shareLogSubject(kind, coin, config.region);
  return config.domain === undefined ? subject : `manjam-${config.domain}.${subject}`;
}

/** The regional stream on a leaf server of JetStream domain `domain` (sourced by the core's stream). */
export function regionalStreamName(config: DistributedConfig, domain: string): string {
  return `${config.stream}-${domain}`;
}

/** Publishes retried with the same message id within this window are stored once by JetStream. */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;

/** Connects to the configured NATS servers; reconnects for ever (an outage is waited out). */
export async function connectShareLog(
  config: DistributedConfig,
  logger: Logger,
  name: string,
): Promise<NatsConnection> {
  if (!config.natsUrl) throw new Error('distributed.natsUrl is not set');
  const servers = config.natsUrl.split(',').map((s) => s.trim());
  const options: ConnectionOptions = {
    servers,
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    waitOnFirstConnect: true,
  };
  // Waits for a server for as long as it takes (logged, so a start that hangs here says why).
  const hosts = servers.map((url) => url.replace(/\/\/[^@/]*@/, '//'));
  logger.info({ servers: hosts }, 'connecting to the JetStream share log');
  const nc = await connect(options);
  void (async () => {
    for await (const status of nc.status()) {
      const type = String(status.type);
      if (type === 'disconnect' || type === 'reconnect')
        logger.warn({ nats: type, server: status.data }, `share log ${type}`);
    }
  })();
  return nc;
}

/**
 * Creates the share log stream when it does not exist yet. An existing one is left as it is,
 * except that the regional streams of `leafDomains` it does not source yet are added to it.
 */
export async function ensureShareLogStream(jsm: JetStreamManager, config: DistributedConfig): Promise<void> {
  const sources: StreamSource[] = config.leafDomains.map((domain) => ({
    name: regionalStreamName(config, domain),
    external: { api: `$JS.${domain}.API`, deliver: '' },
  }));
  await ensureStream(jsm, config.stream, {
    subjects: SHARE_LOG_KINDS.map((kind) => `manjam.${kind}.>`),
    num_replicas: config.replicas,
    max_age: nanos(config.retentionHours * 3_600_000),
    ...(sources.length > 0 ? { sources } : {}),
  });
}

/** The regional stream on this node's own leaf server (a node with `domain` set). */
export async function ensureRegionalStream(jsm: JetStreamManager, config: DistributedConfig): Promise<void> {
  if (config.domain === undefined) throw new Error('distributed.domain is not set');
  await ensureStream(jsm, regionalStreamName(config, config.domain), {
    subjects: [`manjam-${config.domain}.>`],
    num_replicas: config.replicas,
    max_age: nanos(config.retentionHours * 3_600_000),
  });
}

async function ensureStream(
  jsm: JetStreamManager,
  name: string,
  settings: Pick<StreamConfig, 'subjects' | 'num_replicas' | 'max_age'> & { sources?: StreamSource[] },
): Promise<void> {
  let existing: StreamInfo | undefined;
  try {
    existing = await jsm.streams.info(name);
  } catch (error) {
    if (!(error instanceof Error) || !/stream not found/i.test(error.message)) throw error;
  }
  if (existing) {
    const have = new Set((existing.config.sources ?? []).map((s) => s.name));
    const missing = (settings.sources ?? []).filter((s) => !have.has(s.name));
    if (missing.length > 0)
      await jsm.streams.update(name, {
        ...existing.config,
        sources: [...(existing.config.sources ?? []), ...missing],
      });
    return;
  }
  await addStream(jsm, {
    name,
    ...settings,
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
  });
}

/** How long a stream's creation is retried while the cluster cannot place its replicas yet. */
const PLACEMENT_RETRY_MS = 30_000;

/**
 * Creates a stream. Another process may create it at the same moment: then it exists and that is
 * fine. A cluster that has just started (or lost a server) may not know enough peers for the
 * stream's replicas yet and answers "no suitable peers for placement": asked again until
 * PLACEMENT_RETRY_MS has passed, as the core and the cluster often start together.
 */
export async function addStream(
  jsm: JetStreamManager,
  config: Partial<StreamConfig> & { name: string },
): Promise<void> {
  const deadline = Date.now() + PLACEMENT_RETRY_MS;
  for (;;) {
    try {
      await jsm.streams.add(config);
      return;
    } catch (error) {
      if (
        await jsm.streams.info(config.name).then(
          () => true,
          () => false,
        )
      )
        return;
      const placement = error instanceof Error && /no suitable peers/i.test(error.message);
      if (!placement || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
