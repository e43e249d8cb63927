// monerod's ZMQ publisher (`--zmq-pub tcp://…`, in Debian's monerod 0.18) as a wake-up for the
// template source: `json-minimal-chain_main` on every new tip, `json-minimal-txpool_add` on
// transactions entering the node's pool (the interface p2pool mines from). A message only makes
// the source look now (get_info) instead of at its next poll: ZMQ PUB/SUB drops messages while
// disconnected, so polling stays on as the fallback. libzmq reconnects by itself.
import type { Logger } from 'pino';
import { Subscriber } from 'zeromq';

export const MONEROD_ZMQ_TOPICS = {
  tip: 'json-minimal-chain_main',
  transactions: 'json-minimal-txpool_add',
} as const;
export type MoneroZmqEvent = keyof typeof MONEROD_ZMQ_TOPICS;

/** The event of a published message (`<topic>:<json>`), else undefined. */
export function moneroZmqEvent(message: Buffer): MoneroZmqEvent | undefined {
  const head = message.toString('latin1', 0, 40);
  const topic = head.slice(0, head.indexOf(':'));
  if (topic === MONEROD_ZMQ_TOPICS.tip) return 'tip';
  if (topic === MONEROD_ZMQ_TOPICS.transactions) return 'transactions';
  return undefined;
}

export class MoneroZmqWatch {
  private readonly socket = new Subscriber();
  private closed = false;
  private failed = false;
  private heard = false;
  private readonly done: Promise<void>;

  constructor(
    url: string,
    onEvent: (event: MoneroZmqEvent) => void,
    private readonly logger: Logger,
  ) {
    this.socket.connect(url);
    this.socket.subscribe(...Object.values(MONEROD_ZMQ_TOPICS));
    this.done = this.listen(onEvent);
  }

  /** monerod's messages arrive (one has, and the subscription has not failed). */
  get works(): boolean {
    return this.heard && !this.failed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.socket.close();
    await this.done;
  }

  private async listen(onEvent: (event: MoneroZmqEvent) => void): Promise<void> {
    try {
      // Ends when the socket is closed.
      for await (const [message] of this.socket) {
        const event = message ? moneroZmqEvent(message) : undefined;
        this.heard = true;
        if (event) onEvent(event);
      }
    } catch (error) {
      this.failed = true;
      if (!this.closed) this.logger.warn({ err: error }, 'monerod ZMQ subscription failed; polling only');
    }
  }
}
