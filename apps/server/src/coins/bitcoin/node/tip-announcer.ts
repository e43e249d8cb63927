// A new tip told to the template watcher's tip listeners from its header (getblockheader, a few
// hundred bytes) before its template: Stratum sends a coinbase-only job on it at once.
import type { TipHeader } from '@manjam/protocol';
import type { Logger } from 'pino';
import type { BlockHeaderInfo } from './node.js';
import type { TemplateReason, TipListener, WatcherNode } from './watcher-types.js';

/** The longest a template fetch waits for the new tip's header to be answered first. */
const HEADER_FIRST_MS = 250;

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

  /**
   * Announces a new tip, resolving once its header is answered or HEADER_FIRST_MS passed: the
   * caller asks for the template after it. Bitcoin Core takes cs_main for both calls and holds it
   * while it builds the template, so a getblocktemplate that reached it first would hold the
   * small header back.
   */
  async announceFirst(hash: string, reason: TemplateReason): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.announce(hash, reason),
      new Promise((resolve) => (timer = setTimeout(resolve, HEADER_FIRST_MS))),
    ]);
    clearTimeout(timer);
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
