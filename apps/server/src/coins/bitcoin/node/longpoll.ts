// The template watcher's GBT longpoll (BIP 22): one getblocktemplate call the node holds until its
// template changes, asked again after each answer. It parks while the watcher does not want a
// held call (see TemplateWatcher: blocknotify ahead of the template, the poll on) and resumes when
// woken.
import type { NodeTemplate } from './node.js';
import { RpcError } from '../../../rpc/json-rpc.js';
import type { WatcherNode } from './watcher-types.js';

/** The pause before asking again after a longpoll the node answered without waiting (see loop). */
export const UNHELD_LONGPOLL_PAUSE_MS = 1_000;

export interface LongpollHooks {
  node: WatcherNode;
  timeoutMs: number;
  /** The longpollid of the newest template (undefined before the first). */
  longpollId(): string | undefined;
  /** Whether a call should be held now; asked before each call. */
  wanted(): boolean;
  /** The node answered the held call with this template. */
  answered(template: NodeTemplate): Promise<void>;
  failed(err: unknown): void;
  /** How long to wait after a failure. */
  backoffMs(): number;
}

export class Longpoll {
  private running = false;
  private abort: AbortController | undefined;
  private parked: (() => void) | undefined;
  /** A call is at the node, held until its template changes (false while parked or backing off). */
  held = false;

  constructor(private readonly hooks: LongpollHooks) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.loop();
  }

  stop(): void {
    this.running = false;
    this.abort?.abort();
    this.wake();
  }

  /** Ends a park: whether a call is wanted has changed. */
  wake(): void {
    const resume = this.parked;
    this.parked = undefined;
    resume?.();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      if (!this.hooks.wanted()) {
        await new Promise<void>((resolve) => (this.parked = resolve));
        continue;
      }
      this.abort = new AbortController();
      try {
        const id = this.hooks.longpollId();
        if (id === undefined) throw new Error('no longpollid yet');
        this.held = true;
        const template = await this.hooks.node
          .getBlockTemplate(id, { timeoutMs: this.hooks.timeoutMs, signal: this.abort.signal })
          .finally(() => (this.held = false));
        if (!this.running) return;
        await this.hooks.answered(template);
        // An answer at once with the very id it was asked with: the node did not hold the call.
        // The dev chain's litecoind did so once restarted on its data (measured); asked again at
        // once, it kept the idle pool busy (about 40 % of a core, and its heap churning).
        // Blocknotify and the poll still see a new tip meanwhile.
        if (this.running && template.longpollid === id) await this.wait(UNHELD_LONGPOLL_PAUSE_MS);
      } catch (err) {
        if (!this.running) return;
        // A longpoll that simply ran out of time is normal; anything else backs off.
        if (!(err instanceof RpcError && err.kind === 'timeout')) {
          this.hooks.failed(err);
          await this.wait(this.hooks.backoffMs());
        }
      }
    }
  }

  private wait(ms: number): Promise<void> {
    const signal = this.abort?.signal;
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
