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

/** Creates the share log stream when it does not exist yet (an existing one is left as it is). */
export async function ensureShareLogStream(jsm: JetStreamManager, config: DistributedConfig): Promise<void> {
  try {
    await jsm.streams.info(config.stream);
    return;
  } catch (error) {
    if (!(error instanceof Error) || !/stream not found/i.test(error.message)) throw error;
  }
  const created = jsm.streams.add({
    name: config.stream,
    subjects: SHARE_LOG_KINDS.map((kind) => `manjam.${kind}.>`),
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    num_replicas: config.replicas,
    max_age: nanos(config.retentionHours * 3_600_000),
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
  });
  // Another node may have created it at the same moment: then it exists now.
  await created.catch(async (error: unknown) => {
    await jsm.streams.info(config.stream).catch(() => {
      throw error;
    });
  });
}
