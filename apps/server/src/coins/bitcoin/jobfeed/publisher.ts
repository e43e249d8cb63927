// The core's job feed for Bitcoin-family coins: every template and tip of a node-backed source
// goes out as the family's work message (messages.ts), through the feed's publisher
// (../../../jobfeed/publisher.ts: state heartbeat, found blocks from the regions).
import type { Network } from '@manjam/protocol';
import type { NatsConnection } from 'nats';
import type { Logger } from '../../../logger.js';
import { FeedPublisher, type FeedChannel } from '../../../jobfeed/publisher.js';
import type { SourceAvailability, TemplateSource } from '../source.js';
import type { DistributedConfig, WorkMessage } from './messages.js';

export type { JobFeedStats } from '../../../jobfeed/publisher.js';

export interface FeedCoin {
  /** A node-backed source (availability follows its nodes' silence limit). */
  source: TemplateSource;
  network: Network;
}

export interface JobFeedPublisherOptions {
  /** The publisher's own connection: closed by stop(). */
  nc: NatsConnection;
  config: DistributedConfig;
  coins: FeedCoin[];
  logger: Logger;
  heartbeatMs?: number;
}

type Body = Pick<WorkMessage, 'template' | 'info' | 'tip'>;

/** A template source as a feed channel: its templates, and its tips on the template they overtake. */
export function bitcoinChannel({ source, network }: FeedCoin): FeedChannel<Body> {
  return {
    coin: source.coin,
    network,
    get poolAddress() {
      return source.poolAddress;
    },
    current: () => {
      const template = source.current();
      return template ? { template, info: { newTip: true, reason: 'start' } } : undefined;
    },
    onWork: (listener) => {
      const offTemplate = source.onTemplate((template, info) => listener({ template, info }));
      const offTip = source.onTip?.((tip, info) => {
        const template = source.current();
        if (template) listener({ template, info, tip });
      });
      return () => {
        offTemplate();
        offTip?.();
      };
    },
    // A source without availability is always up (the feed's default state).
    ...(source.availability ? { availability: () => source.availability?.() ?? UP } : {}),
    onAvailability: (listener) => source.onAvailability?.(() => listener()) ?? NOTHING,
    submitBlock: (blockHex, expected) => source.submitBlock(blockHex, expected),
  };
}

const UP: SourceAvailability = { up: true, since: new Date(0), message: 'node answers' };
const NOTHING = (): void => undefined;

export class JobFeedPublisher extends FeedPublisher {
  constructor({ coins, ...options }: JobFeedPublisherOptions) {
    super({ ...options, channels: coins.map(bitcoinChannel) });
  }
}
