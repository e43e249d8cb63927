// A small Stratum V2 miner for tests and drills: the protocol package's Noise initiator (it
// refuses a pool whose certificate the given authority did not sign), encrypted frames both ways,
// the Mining messages, and a CPU search for a header under a target on an extended or standard
// channel's job. Not used by the pool.
import net from 'node:net';
import { hashToBigInt, merkleRootFromBranch, sha256d } from '@manjam/protocol';
import {
  ACT_TWO_BYTES,
  decodeMessage,
  encodeMessage,
  encryptFrame,
  EncryptedFrameDecoder,
  NoiseInitiator,
  type CipherState,
  type Frame,
  type HandshakeError,
  type Sv2Message,
  type Sv2MessageName,
  type Sv2MessageOf,
} from '@manjam/protocol/sv2';

export class Sv2HandshakeRefused extends Error {
  constructor(readonly reason: HandshakeError) {
    super(`the pool's handshake was refused: ${JSON.stringify(reason)}`);
  }
}

type Waiter = { test: (m: Sv2Message) => boolean; resolve: (m: Sv2Message) => void };

/** The work a channel mines: its last job and the prev hash it builds on. */
export interface ChannelWork {
  job: Sv2MessageOf<'NewExtendedMiningJob'> | Sv2MessageOf<'NewMiningJob'>;
  prevHash: Sv2MessageOf<'SetNewPrevHash'>;
}

export class Sv2TestClient {
  readonly messages: Sv2Message[] = [];
  private readonly waiters = new Set<Waiter>();
  closed = false;
  bytesIn = 0;
  bytesOut = 0;
  private nextRequestId = 1;

  private constructor(
    readonly socket: net.Socket,
    private readonly encryptor: CipherState,
    decoder: EncryptedFrameDecoder,
    rest: Buffer,
  ) {
    const feed = (chunk: Buffer): void => {
      this.bytesIn += chunk.length;
      for (const ev of decoder.feed(chunk)) {
        if (ev.kind === 'error') return void socket.destroy();
        const decoded = decodeMessage(ev.frame);
        if (decoded.ok) this.receive(decoded.message);
      }
    };
    socket.on('data', feed);
    socket.on('close', () => (this.closed = true));
    if (rest.length > 0) feed(rest);
  }

  /**
   * Connects and completes the handshake; rejects with Sv2HandshakeRefused on a bad certificate.
   * `localAddress` (e.g. 127.0.0.2) makes the connection come from another loopback address.
   */
  static async connect(
    port: number,
    authorityXonly: Uint8Array,
    host = '127.0.0.1',
    localAddress?: string,
  ): Promise<Sv2TestClient> {
    const socket = net.connect({ port, host, ...(localAddress ? { localAddress } : {}) });
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.on('error', () => undefined);
    const initiator = new NoiseInitiator(authorityXonly);
    socket.write(initiator.actOne());
    const act2 = await readBytes(socket, ACT_TWO_BYTES);
    const result = initiator.actTwo(act2.subarray(0, ACT_TWO_BYTES));
    if (!result.ok) {
      socket.destroy();
      throw new Sv2HandshakeRefused(result.error);
    }
    const { encryptor, decryptor } = result.value.session;
    const client = new Sv2TestClient(
      socket,
      encryptor,
      new EncryptedFrameDecoder(decryptor),
      act2.subarray(ACT_TWO_BYTES),
    );
    client.bytesIn += ACT_TWO_BYTES;
    client.bytesOut += 64;
    return client;
  }

  send(message: Sv2Message): void {
    const bytes = encryptFrame(this.encryptor, encodeMessage(message));
    this.bytesOut += bytes.length;
    this.socket.write(bytes);
  }

  /** Any frame, encrypted (an over-long or unknown one, for drills). */
  sendFrame(frame: Frame): void {
    this.socket.write(encryptFrame(this.encryptor, frame));
  }

  /** Raw bytes on the socket (garbage, replays). */
  writeRaw(bytes: Uint8Array): void {
    this.socket.write(bytes);
  }

  /** The next message of `type` (from now on, or already received when `seen` is false) that passes `test`. */
  next<N extends Sv2MessageName>(
    type: N,
    test: (m: Sv2MessageOf<N>) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<Sv2MessageOf<N>> {
    const match = (m: Sv2Message): boolean => m.type === type && test(m as unknown as Sv2MessageOf<N>);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { test: match, resolve: (m) => resolve(m as unknown as Sv2MessageOf<N>) };
      this.waiters.add(waiter);
      setTimeout(() => {
        if (!this.waiters.delete(waiter)) return;
        reject(new Error(`no ${type} within ${timeoutMs} ms`));
      }, timeoutMs).unref();
    });
  }

  async setup(flags = 0): Promise<Sv2Message> {
    const answer = Promise.race([this.next('SetupConnectionSuccess'), this.next('SetupConnectionError')]);
    this.send({
      type: 'SetupConnection',
      protocol: 0,
      minVersion: 2,
      maxVersion: 2,
      flags,
      endpointHost: '127.0.0.1',
      endpointPort: this.socket.remotePort ?? 0,
      vendor: 'manjam-test',
      hardwareVersion: '',
      firmware: '',
      deviceId: '',
    });
    return answer;
  }

  /** Opens a channel; resolves with its success (and its first work) or its error. */
  async open(
    kind: 'standard' | 'extended',
    userIdentity: string,
    maxTarget: Uint8Array = new Uint8Array(32).fill(0xff),
  ): Promise<
    | {
        ok: true;
        channelId: number;
        extranoncePrefix: Uint8Array;
        extranonceSize: number;
        target: Uint8Array;
        work: Promise<ChannelWork>;
      }
    | { ok: false; errorCode: string }
  > {
    const requestId = this.nextRequestId++;
    const from = this.messages.length;
    const success =
      kind === 'extended' ? 'OpenExtendedMiningChannelSuccess' : 'OpenStandardMiningChannelSuccess';
    const answer = Promise.race([
      this.next(success, (m) => m.requestId === requestId),
      this.next('OpenMiningChannelError', (m) => m.requestId === requestId),
    ]);
    const base = { requestId, userIdentity, nominalHashRate: 0, maxTarget };
    this.send(
      kind === 'extended'
        ? { type: 'OpenExtendedMiningChannel', ...base, minExtranonceSize: 0 }
        : { type: 'OpenStandardMiningChannel', ...base },
    );
    const m = await answer;
    if (m.type === 'OpenMiningChannelError') return { ok: false, errorCode: m.errorCode };
    const channelId = m.channelId;
    return {
      ok: true,
      channelId,
      extranoncePrefix: m.extranoncePrefix,
      extranonceSize: m.type === 'OpenExtendedMiningChannelSuccess' ? m.extranonceSize : 0,
      target: m.target,
      work: this.work(channelId, from),
    };
  }

  /**
   * The channel's job activated by a SetNewPrevHash (a new tip, or its first work) received at or
   * after message number `from` (default: the next one).
   */
  async work(channelId: number, from = this.messages.length): Promise<ChannelWork> {
    const isPrevHash = (m: Sv2Message): m is Sv2MessageOf<'SetNewPrevHash'> =>
      m.type === 'SetNewPrevHash' && m.channelId === channelId;
    const prevHash =
      this.messages.slice(from).find(isPrevHash) ??
      (await this.next('SetNewPrevHash', (m) => m.channelId === channelId));
    const job = this.messages.findLast(
      (m): m is ChannelWork['job'] =>
        (m.type === 'NewExtendedMiningJob' || m.type === 'NewMiningJob') &&
        m.channelId === channelId &&
        m.jobId === prevHash.jobId,
    );
    if (!job) throw new Error(`SetNewPrevHash for job ${prevHash.jobId} came before its job`);
    return { job, prevHash };
  }

  close(): void {
    this.socket.destroy();
  }

  private receive(m: Sv2Message): void {
    this.messages.push(m);
    for (const w of this.waiters) {
      if (!w.test(m)) continue;
      this.waiters.delete(w);
      w.resolve(m);
    }
  }
}

/** A header's parts for a job, and a search for a nonce whose hash passes `accept`. */
export function findNonce(
  work: ChannelWork,
  coinbaseParts: { extranoncePrefix: Uint8Array; extranonce: Uint8Array } | undefined,
  accept: (hash: bigint) => boolean,
  startNonce = 0,
): { nonce: number; ntime: number; version: number; hash: bigint } {
  const { job, prevHash } = work;
  const root =
    job.type === 'NewMiningJob'
      ? Buffer.from(job.merkleRoot)
      : merkleRootFromBranch(
          sha256d(
            Buffer.concat([
              job.coinbaseTxPrefix,
              coinbaseParts?.extranoncePrefix ?? new Uint8Array(0),
              coinbaseParts?.extranonce ?? new Uint8Array(0),
              job.coinbaseTxSuffix,
            ]),
          ),
          job.merklePath.map((b) => Buffer.from(b)),
        );
  const header = Buffer.alloc(80);
  header.writeUInt32LE(job.version, 0);
  Buffer.from(prevHash.prevHash).copy(header, 4);
  root.copy(header, 36);
  header.writeUInt32LE(prevHash.minNtime, 68);
  header.writeUInt32LE(prevHash.nbits, 72);
  for (let nonce = startNonce; nonce <= 0xffffffff; nonce++) {
    header.writeUInt32LE(nonce, 76);
    const hash = hashToBigInt(sha256d(header));
    if (accept(hash)) return { nonce, ntime: prevHash.minNtime, version: job.version, hash };
  }
  throw new Error('no nonce found');
}

function readBytes(socket: net.Socket, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length < n) return;
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve(buf);
    };
    const onClose = (): void => reject(new Error(`closed after ${buf.length} of ${n} handshake bytes`));
    socket.on('data', onData);
    socket.once('close', onClose);
  });
}
