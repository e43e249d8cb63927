// A new tip told to the template watcher's tip listeners from its header (getblockheader, a few
// hundred bytes) before its template: Stratum sends a coinbase-only job on it at once.
import type { TipHeader } from '@manjam/protocol';
import type { Logger } from 'pino';
import type { BlockHeaderInfo } from './node.js';
import type { TemplateReason, TipListener, WatcherNode } from './watcher-types.js';

export class TipAnnouncer {
  private readonly listeners = new Set<TipListener>();
  /** The newest tip announced before its template. */
  announced: string | undefined;
  /** How many announcements there were (a fetch started before one may be out of date). */
  announcements = 0;

  constructor(
    private readonly node: WatcherNode,
    private readonly logger: Logger,
    /** False once the watcher stopped; a hash: the tip whose template is already out. */
    private readonly state: () => { running: boolean; tipHash: string | null },
  ) {}

  /** Subscribes; returns the unsubscribe function. */
  onTip(listener: TipListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads a new tip's header and tells the listeners, unless its template came first. */
  async announce(hash: string, reason: TemplateReason): Promise<void> {
    if (this.listeners.size === 0 || hash === this.announced) return;
    this.announced = hash;
    this.announcements++;
    let header: BlockHeaderInfo;
    try {
      header = await this.node.getBlockHeader(hash);
    } catch (err) {
      this.logger.debug(
        { err: (err as Error).message, hash },
        'getblockheader failed; waiting for the template',
      );
      return;
    }
    const { running, tipHash } = this.state();
    if (!running || tipHash === hash || this.announced !== hash || header.confirmations < 0) return;
    const tip: TipHeader = {
      hash: header.hash,
      height: header.height,
      bits: typeof header.bits === 'number' ? header.bits.toString(16).padStart(8, '0') : header.bits,
      mediantime: header.mediantime,
    };
    for (const listener of this.listeners) {
      try {
        listener(tip, { newTip: true, reason });
      } catch (err) {
        this.logger.error({ err }, 'a tip listener threw');
      }
    }
  }
}
