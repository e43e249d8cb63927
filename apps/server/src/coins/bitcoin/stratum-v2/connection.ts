// One Stratum V2 connection: the Noise NX responder handshake (act one in, act two out), then
// encrypted frames through transport.ts's decoder, SetupConnection first, then the Mining
// protocol's channel messages (handlers.ts). Anything a miner or an attacker on the path can send
// (garbage, a truncated or over-long frame, a bad MAC, replayed ciphertext, an unknown message)
// closes this connection only, is counted, and is logged at debug: it never throws.
import type { Socket } from 'node:net';
import {
  ACT_ONE_BYTES,
  decodeMessage,
  encodeMessage,
  encryptFrame,
  EncryptedFrameDecoder,
  noiseSession,
  type CipherState,
  type Frame,
  type Sv2Message,
} from '@manjam/protocol/sv2';
import type { AddressRecord } from '../../../stratum/bans.js';
import { MAX_WRITE_BACKLOG } from '../../../stratum/write.js';
import type { Sv2Channel } from './channel.js';
import type { HandshakeOutcome } from './handshake-pool.js';
import { handleMessage } from './handlers.js';
import type { Sv2Fault, Sv2Link, Sv2PortRuntime } from './runtime.js';

export type { Sv2Fault } from './runtime.js';

/** The largest frame payload a miner may send: the biggest Mining message it sends is far smaller. */
export const MAX_INBOUND_PAYLOAD = 16 * 1024;

let nextConnectionId = 1;

export class Sv2Connection implements Sv2Link {
  readonly id = nextConnectionId++;
  readonly ip: string;
  lastReceivedMs = Date.now();
  readonly connectedMs = this.lastReceivedMs;
  closed = false;
  /** SetupConnection's vendor/firmware, copied to each channel. */
  userAgent = '';
  /** SetupConnection accepted: channel messages may follow. */
  setUp = false;
  readonly channels = new Map<number, Sv2Channel>();
  /** Channel opens waiting for their login lookup (they count toward the channel cap). */
  opening = 0;
  nextChannelId = 1;
  /** Since when the connection has had no channel (its start, or its last channel's close). */
  channelSinceMs = this.connectedMs;
  /** Act one as it arrives; undefined once it is complete. */
  private actOne: Buffer | undefined = Buffer.alloc(0);
  /** What arrived while the handshake thread computed act two (frames, read once it is answered). */
  private early: Buffer[] | undefined;
  private encryptor: CipherState | undefined;
  private decoder: EncryptedFrameDecoder | undefined;
  private readonly deadline: NodeJS.Timeout;

  constructor(
    readonly socket: Socket,
    readonly address: AddressRecord,
    readonly runtime: Sv2PortRuntime,
  ) {
    this.ip = address.ip;
    const ms = runtime.pool.config.stratum.v2.handshakeTimeoutSeconds * 1000;
    this.deadline = setTimeout(() => {
      if (!this.setUp) this.fault('timeout', 'no handshake and SetupConnection in time');
    }, ms);
    this.deadline.unref();
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('end', () => {
      const error = this.decoder?.end();
      if (error) this.fault('bad-frame', `ended inside a frame (${error.code})`);
    });
  }

  /** Encrypts and writes one message; a miner that stops reading is dropped instead. */
  send(message: Sv2Message): void {
    if (this.writable()) this.write(encodeMessage(message));
  }

  /** Encrypts and writes encoded messages in one write (one syscall); a miner that stops reading is dropped instead. */
  sendFrames(frames: readonly Frame[]): void {
    if (!this.writable()) return;
    this.socket.cork();
    for (const frame of frames) this.write(frame);
    this.socket.uncork();
  }

  private writable(): boolean {
    if (this.closed || !this.encryptor) return false;
    if (this.socket.writableLength <= MAX_WRITE_BACKLOG) return true;
    this.close('not reading');
    return false;
  }

  private write(frame: Frame): void {
    const bytes = encryptFrame(this.encryptor as CipherState, frame);
    this.runtime.wire.bytesOut += bytes.length;
    this.socket.write(bytes);
  }

  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.deadline);
    this.runtime.pool.logger.debug(
      { connection: this.id, ip: this.ip, reason },
      'stratum v2 connection closed',
    );
    const socket = this.socket;
    // As V1 (session.ts): written answers leave, after the share journal's flush (nextTick) uncorks.
    process.nextTick(() => {
      while (socket.writableCorked > 0) socket.uncork();
      socket.destroy();
    });
  }

  /** Closes for something the peer sent: counted by kind. */
  fault(kind: Sv2Fault, reason: string): void {
    if (this.closed) return;
    this.runtime.faults[kind]++;
    this.close(reason);
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    this.lastReceivedMs = Date.now();
    this.runtime.wire.bytesIn += chunk.length;
    if (this.actOne) this.handshake(chunk);
    else if (this.early) this.hold(chunk);
    else this.frames(chunk);
  }

  private frames(chunk: Buffer): void {
    const events = (this.decoder as EncryptedFrameDecoder).feed(chunk);
    // Answers to every frame of this chunk leave in one write.
    this.socket.cork();
    try {
      for (const event of events) {
        if (this.closed) break;
        if (event.kind === 'error') {
          this.fault('bad-frame', `frame refused (${event.error.code})`);
          break;
        }
        const decoded = decodeMessage(event.frame);
        if (!decoded.ok) {
          this.fault('bad-message', `message refused (${decoded.error.code})`);
          break;
        }
        handleMessage(this, decoded.message);
      }
    } catch (error) {
      // A bug in a handler must not take the process down: this connection goes.
      this.runtime.pool.logger.warn({ err: error, connection: this.id }, 'stratum v2 handler failed');
      this.close('handler failed');
    } finally {
      this.socket.uncork();
    }
  }

  /**
   * Gathers act one (64 bytes) and hands it to the handshake threads (handshake-pool.ts); act two
   * goes out when they answer. Whatever follows act one is the first encrypted frames.
   */
  private handshake(chunk: Buffer): void {
    const got = Buffer.concat([this.actOne as Buffer, chunk]);
    if (got.length < ACT_ONE_BYTES) {
      this.actOne = got;
      return;
    }
    this.actOne = undefined;
    this.early = [];
    this.hold(got.subarray(ACT_ONE_BYTES));
    const pending = this.runtime.handshakes.handshake(
      this.ip,
      new Uint8Array(got.subarray(0, ACT_ONE_BYTES)),
      this.runtime.authority.identity(),
      () => !this.closed && !this.socket.destroyed,
    );
    pending.then(
      (outcome) => this.answered(outcome),
      (error: unknown) => {
        this.runtime.pool.logger.warn({ err: error, connection: this.id }, 'stratum v2 handshake failed');
        this.close('handshake failed');
      },
    );
  }

  /** Keeps bytes that arrive before act two is sent, up to one frame's worth. */
  private hold(chunk: Buffer): void {
    const early = this.early as Buffer[];
    if (chunk.length === 0) return;
    early.push(chunk);
    if (early.reduce((n, b) => n + b.length, 0) > MAX_INBOUND_PAYLOAD)
      this.fault('bad-frame', 'sent frames before the handshake ended');
  }

  private answered(outcome: HandshakeOutcome): void {
    if (this.closed) return;
    if (outcome.kind === 'dropped') return this.close('closed during the handshake');
    if (outcome.kind === 'shed') {
      this.runtime.faults['handshake-shed']++;
      return this.close(`handshake not started (${outcome.reason})`);
    }
    if (outcome.kind === 'refused') return this.fault('handshake', `handshake refused (${outcome.error})`);
    const session = noiseSession(outcome.keys);
    this.encryptor = session.encryptor;
    this.decoder = new EncryptedFrameDecoder(session.decryptor, MAX_INBOUND_PAYLOAD);
    this.runtime.wire.bytesOut += outcome.reply.length;
    this.socket.write(outcome.reply);
    const early = Buffer.concat(this.early as Buffer[]);
    this.early = undefined;
    if (early.length > 0) this.frames(early);
  }
}
