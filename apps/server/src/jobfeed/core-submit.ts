// A region's found block goes to the core (which submits it to every node it has) and to every
// node of the region's own. Every block rides one delivery loop until the core has given its
// verdict: no attempt waits long, a block is sent again the moment the region's NATS connection
// comes back or the core is heard from again, and an answer that does not come is followed by a
// question about the block's status (the core remembers what it was sent: core-blocks.ts), so a
// lost reply is never mistaken for an unreachable core and a block is never submitted twice.
import { ErrorCode, type NatsConnection, type NatsError } from 'nats';
import type { CoinId } from '../config/index.js';
import type { Logger } from '../logger.js';
import type { BlockSubmitResult } from '../stratum/source.js';
import {
  decode,
  encode,
  statusReplySchema,
  submitReplySchema,
  submitStatusSubject,
  submitSubject,
  type StatusReply,
  type SubmitRequest,
} from './messages.js';

/**
 * How long a block the core could not be reached for is re-sent. A block is worth sending while
 * the network has not moved past it; ten minutes is a Bitcoin block interval, past which a block
 * still unknown to the network has lost the race anyway.
 */
export const BLOCK_RESEND_MS = 10 * 60_000;
/**
 * One request (the block, or a status question) waits this long for the core. The core answers a
 * block once its nodes took it, usually in tens of milliseconds; when it takes longer the status
 * question says "submitting" and the region asks again, so no wait is ever longer than this.
 */
export const CORE_ATTEMPT_MS = 2_000;
/** While the core says the block is still on its nodes, the region asks again this often. */
export const STATUS_POLL_MS = 200;
/**
 * While the core cannot be reached, the region asks for the block's status this often (a few
 * bytes; the region's own leaf server answers "no responders" at once while the core is away),
 * besides asking at once when the connection comes back or the core's job feed is heard again.
 */
export const UNREACHABLE_RETRY_MS = 250;
/**
 * A found block is recorded with the core's verdict when it comes within this long, else as
 * "submitted" (accounting settles it from the chain) while its delivery goes on.
 */
export const RECORD_WAIT_MS = 5_000;
/** A block not delivered after this long is logged at error level (orphan risk grows). */
export const UNDELIVERED_ERROR_MS = 10_000;

export interface CoreSubmitterOptions {
  nc: NatsConnection;
  coin: CoinId;
  region: string;
  logger: Logger;
  /**
   * The region's own nodes of the coin, when it has some: found blocks go to them too (the
   * family submits there; a throw counts as an unknown outcome).
   */
  ownSubmit?: (blockHex: string, expected: { height: number; hash: string }) => Promise<BlockSubmitResult>;
}

/** What one ask of the core came to. */
type Outcome =
  | { kind: 'answer'; result: BlockSubmitResult }
  | { kind: 'status'; reply: StatusReply }
  /** asked: a request went out (and no core listened); else none could (no connection). */
  | { kind: 'unreachable'; why: string; asked: boolean }
  | { kind: 'no-answer'; why: string };

const verdict = (results: BlockSubmitResult[]): BlockSubmitResult =>
  results.find((r) => r.status === 'accepted') ??
  results.find((r) => r.status === 'side_branch') ??
  results.find((r) => r.status === 'rejected') ??
  results[0] ?? { status: 'unknown', nodeResult: null };

const isNatsError = (error: unknown, code: string): boolean =>
  error instanceof Error && (error as NatsError).code === code;

export class CoreSubmitter {
  private readonly resending = new Set<string>();
  private readonly wakers = new Set<() => void>();
  private closed = false;
  /** False between the connection's disconnect and reconnect events. */
  private connected = true;
  private watching = false;

  constructor(private readonly options: CoreSubmitterOptions) {}

  /** Blocks not yet delivered to the core. */
  get pending(): number {
    return this.resending.size;
  }

  /**
   * The core was heard from (a live job feed message): a block waiting for it is sent now, not at
   * its next retry. Called by the coin's CoreJobSource.
   */
  coreHeard(): void {
    this.wake();
  }

  async submit(blockHex: string, expected: { height: number; hash: string }): Promise<BlockSubmitResult> {
    const { ownSubmit } = this.options;
    const own = ownSubmit?.(blockHex, expected).then(
      (r): BlockSubmitResult => ({ status: r.status, nodeResult: r.nodeResult }),
      (error: unknown): BlockSubmitResult => ({
        status: 'unknown',
        nodeResult: `own nodes: ${(error as Error).message}`,
      }),
    );
    const request: SubmitRequest = { blockHex, ...expected, region: this.options.region };
    // The found block is recorded with the core's verdict, or as "submitted" as soon as the core
    // proves unreachable (or RECORD_WAIT_MS passed); delivery goes on in the background then.
    const core = new Promise<BlockSubmitResult>((resolve) => {
      const notYet = (why: string): void =>
        resolve({
          status: 'unknown',
          nodeResult: `not delivered to the core yet (${why}); re-sending for up to ${BLOCK_RESEND_MS / 60_000} min`,
        });
      const timer = setTimeout(() => notYet(`no verdict within ${RECORD_WAIT_MS} ms`), RECORD_WAIT_MS);
      void this.deliver(request, notYet)
        .then(resolve)
        .finally(() => clearTimeout(timer));
    });
    return verdict(await Promise.all(own ? [core, own] : [core]));
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  /** Sends the block until the core gives a verdict (or the resend time is over). */
  private async deliver(request: SubmitRequest, notYet: (why: string) => void): Promise<BlockSubmitResult> {
    const { logger, coin } = this.options;
    const block = { coin, height: request.height, hash: request.hash };
    const startedAt = Date.now();
    let sendBlock = true;
    let firstWhy: string | undefined;
    let errorLogged = false;
    this.resending.add(request.hash);
    try {
      while (!this.closed && Date.now() < startedAt + BLOCK_RESEND_MS) {
        const outcome = await this.askOnce(request, sendBlock);
        if (outcome.kind === 'answer') return this.delivered(block, outcome.result, startedAt, firstWhy);
        if (outcome.kind === 'status' && outcome.reply.state === 'done')
          return this.delivered(block, outcome.reply.result, startedAt, firstWhy ?? 'answer lost');
        if (!errorLogged && Date.now() - startedAt >= UNDELIVERED_ERROR_MS) {
          errorLogged = true;
          const why = outcome.kind === 'status' ? `the core is ${outcome.reply.state}` : outcome.why;
          logger.error(
            { ...block, why, waitedMs: Date.now() - startedAt },
            'found block: still not delivered to the core; re-sending',
          );
        }
        if (outcome.kind === 'status') {
          // submitting: the core is on it, ask again shortly; unknown: it never got the block, send it now.
          sendBlock = outcome.reply.state === 'unknown';
          if (!sendBlock) await this.pause(STATUS_POLL_MS);
        } else if (outcome.kind === 'no-answer') {
          // An answer that does not come: ask what became of the block rather than send it blind.
          sendBlock = false;
          logger.info(
            { ...block, why: outcome.why },
            "found block: no answer from the core yet; asking for the block's status",
          );
        } else {
          // No core listens: the block and the status question take turns (the block is answered
          // by a core that does not know the question yet), and the block waits no longer than
          // UNREACHABLE_RETRY_MS once the core is back.
          if (outcome.asked) sendBlock = !sendBlock;
          if (firstWhy === undefined) {
            firstWhy = outcome.why;
            notYet(outcome.why);
            logger.warn(
              { ...block, why: outcome.why },
              'found block: the core cannot be reached now; sending it the moment it can',
            );
          }
          await this.pause(UNREACHABLE_RETRY_MS);
        }
      }
      if (!this.closed) logger.error(block, 'found block: never reached the core; given up');
      notYet('never reached the core');
      return { status: 'unknown', nodeResult: 'never reached the core' };
    } finally {
      this.resending.delete(request.hash);
    }
  }

  private delivered(
    block: { coin: CoinId; height: number; hash: string },
    result: BlockSubmitResult,
    startedAt: number,
    after: string | undefined,
  ): BlockSubmitResult {
    const deliveredMs = Date.now() - startedAt;
    if (after !== undefined)
      this.options.logger.warn(
        { ...block, ...result, deliveredMs, after },
        'found block: delivered to the core',
      );
    return result;
  }

  /** One request to the core: the block itself, or the status question. */
  private async askOnce(request: SubmitRequest, sendBlock: boolean): Promise<Outcome> {
    // While the connection is down a request would only wait in the client's buffer: wait for it.
    if (!this.connected)
      return { kind: 'unreachable', why: 'the region has no NATS connection', asked: false };
    const { nc, coin, region } = this.options;
    try {
      if (sendBlock) {
        const reply = await nc.request(submitSubject(coin), encode(request), { timeout: CORE_ATTEMPT_MS });
        const result = decode(submitReplySchema, reply.data);
        if (!result)
          return { kind: 'no-answer', why: 'the core answered a block submit with something else' };
        return {
          kind: 'answer',
          result:
            result.tipHash === undefined ? { status: result.status, nodeResult: result.nodeResult } : result,
        };
      }
      const reply = await nc.request(submitStatusSubject(coin), encode({ hash: request.hash, region }), {
        timeout: CORE_ATTEMPT_MS,
      });
      const status = decode(statusReplySchema, reply.data);
      // A core that does not know the status question yet: send the block (it answers that).
      return status ? { kind: 'status', reply: status } : { kind: 'status', reply: { state: 'unknown' } };
    } catch (error) {
      if (isNatsError(error, ErrorCode.Timeout))
        return this.connected
          ? { kind: 'no-answer', why: `no answer within ${CORE_ATTEMPT_MS} ms` }
          : { kind: 'unreachable', why: 'the region lost its NATS connection', asked: false };
      if (isNatsError(error, ErrorCode.NoResponders))
        return {
          kind: 'unreachable',
          why: 'no core listens (no responders: the link to the core is down, or no accounting leader runs)',
          asked: true,
        };
      return { kind: 'unreachable', why: (error as Error).message, asked: false };
    }
  }

  /** Waits `ms`, or less when the connection comes back or the core is heard from. */
  private pause(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }

  private wake(): void {
    for (const waker of [...this.wakers]) waker();
  }

  /** Follows the connection's status events: a block waiting for the link is sent when it returns. */
  start(): void {
    if (this.watching) return;
    this.watching = true;
    void (async () => {
      for await (const status of this.options.nc.status()) {
        const type = String(status.type);
        if (type === 'disconnect') this.connected = false;
        if (type === 'reconnect') {
          this.connected = true;
          this.wake();
        }
      }
    })();
  }
}
