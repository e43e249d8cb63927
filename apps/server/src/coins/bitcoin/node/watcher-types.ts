// The template watcher's vocabulary: why a template was emitted, its options and its status.
import type { TipHeader } from '@manjam/protocol';
import type { NewTipSource } from '@manjam/contract';
import type { Logger } from 'pino';
import type { ChainNode, NodeTemplate } from './node.js';

export const TEMPLATE_REASONS = ['start', 'blocknotify', 'longpoll', 'poll', 'refresh'] as const;
export type TemplateReason = (typeof TEMPLATE_REASONS)[number];

export interface TemplateInfo {
  newTip: boolean;
  reason: TemplateReason;
}
export type TemplateListener = (template: NodeTemplate, info: TemplateInfo) => void;
/** A new tip heard of before its template (blocknotify or poll, then getblockheader). */
export type TipListener = (tip: TipHeader, info: TemplateInfo) => void;

/** The node calls the watcher needs (a ChainNode has them all). */
export type WatcherNode = Pick<
  ChainNode,
  'coin' | 'getBlockTemplate' | 'getBestBlockHash' | 'getBlockHeader'
>;

export interface TemplateWatcherOptions {
  node: WatcherNode;
  logger: Logger;
  /** UDP port for blocknotify datagrams on 127.0.0.1 (0 = ephemeral); undefined = no listener. */
  blocknotifyPort?: number;
  longpoll?: boolean;
  pollIntervalMs?: number;
  refreshIntervalMs?: number;
  /** Timeout of one longpoll call; the node answers sooner when the template changes. */
  longpollTimeoutMs?: number;
  maxBackoffMs?: number;
  /** No answer from any node for this long: the coin is down (default 30 s). */
  silenceMs?: number;
  /** Back-off cap while the coin is down, so a returning node is noticed quickly (default 2 s). */
  downBackoffMs?: number;
}

export interface WatcherStatus {
  /** How new blocks are heard now (the fastest way that works; docs/OPERATIONS.md). */
  newTipsBy: NewTipSource;
  coin: string;
  running: boolean;
  height: number | null;
  tipHash: string | null;
  lastTemplateAt: Date | null;
  templatesEmitted: number;
  /** The most recent failure (kept after recovery; see consecutiveFailures). */
  lastError: { message: string; at: Date } | null;
  /** 0 when the last call to the node succeeded. */
  consecutiveFailures: number;
  blocknotifyPort: number | null;
  longpoll: boolean;
  pollIntervalMs: number;
  /** False while no node has answered past the silence limit (work is paused). */
  up: boolean;
  /** When the coin went down (null while up). */
  downSince: Date | null;
}
