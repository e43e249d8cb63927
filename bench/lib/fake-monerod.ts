// A stand-in monerod for the RandomX phase: a JSON-RPC server on 127.0.0.1 that answers what the
// pool's MoneroTemplateSource asks (get_block_template, get_info, submit_block,
// get_last_block_header) with ONE frozen template: real monerod output (the protocol test
// vector TEMPLATE_THREE_TX: monerod 0.18 on a regtest chain, mainnet block format and address
// prefixes, a miner transaction and three transactions, 8 reserved bytes at offset 127) with a
// mainnet-scale network difficulty, so no share is ever a block. `moveTip` changes the tip as a
// new block would (a new previous-block id written into the blob) and can announce the next
// RandomX epoch's seed (get_block_template's next_seed_hash, known 64 blocks ahead) or switch
// to it: the memory-per-epoch steps.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseMoneroBlock } from '@manjam/protocol/monero';
import {
  ADDRESSES,
  BLOCK_111,
  TEMPLATE_THREE_TX,
} from '../../packages/protocol/test/monero/test-fixtures.js';

/**
 * Mainnet-scale network difficulty: about 3.3 GH/s x 120 s blocks (Monero mainnet's order of
 * magnitude). A share at the bench's difficulty 1 is a block once in 4e11 hashes.
 */
export const XMR_MAINNET_DIFFICULTY = 400_000_000_000n;

/** The frozen template's RandomX seed (the vector's: the first epoch's seed of its chain). */
export const XMR_SEED = TEMPLATE_THREE_TX.seedHash;

/** Seeds of the next two epochs: block ids from the protocol vectors stand in for the seed blocks. */
export const XMR_NEXT_SEEDS = [BLOCK_111.hash, BLOCK_111.minerTxHash] as const;

/** The pool wallet's address in the config (mainnet standard); the frozen blob pays the vector's wallet. */
export const XMR_POOL_ADDRESS = ADDRESSES.mainnet.standard;

/** The frozen template's hashing blob (76 bytes): what the raw capacity measurement hashes. */
export const XMR_HASHING_BLOB = TEMPLATE_THREE_TX.blockhashingBlob;

/** Tail emission, 0.6 XMR in atomic units (the template's expected_reward). */
const REWARD = 600_000_000_000;

export class FakeMonerod {
  private readonly blob = Buffer.from(TEMPLATE_THREE_TX.blocktemplateBlob, 'hex');
  private readonly prevOffset = parseMoneroBlock(this.blob).header.nonceOffset - 32;
  private prevHash: string;
  private seed: string = XMR_SEED;
  private nextSeed = '';
  /** submit_block calls: blocks the pool found (should stay 0 at mainnet difficulty). */
  submittedBlocks = 0;

  private constructor(private readonly server: http.Server) {
    this.prevHash = Buffer.from(parseMoneroBlock(this.blob).header.prevId).toString('hex');
  }

  static async start(): Promise<FakeMonerod> {
    const server = http.createServer();
    const node = new FakeMonerod(server);
    server.on('request', (req, res) => node.onRequest(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return node;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A new block on the tip; `seed`/`nextSeed` as get_block_template would then answer them. */
  moveTip(epoch: { seed?: string; nextSeed?: string } = {}): void {
    const prev = randomBytes(32);
    prev.copy(this.blob, this.prevOffset);
    this.prevHash = prev.toString('hex');
    this.seed = epoch.seed ?? this.seed;
    this.nextSeed = epoch.nextSeed ?? '';
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: unknown; method: string };
      const answer = this.answer(request.method);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, ...answer }));
    });
  }

  private answer(method: string): { result: unknown } | { error: { code: number; message: string } } {
    const height = TEMPLATE_THREE_TX.height;
    switch (method) {
      case 'get_block_template':
        return {
          result: {
            blocktemplate_blob: this.blob.toString('hex'),
            difficulty: Number(XMR_MAINNET_DIFFICULTY),
            wide_difficulty: `0x${XMR_MAINNET_DIFFICULTY.toString(16)}`,
            expected_reward: REWARD,
            height,
            prev_hash: this.prevHash,
            reserved_offset: TEMPLATE_THREE_TX.reservedOffset,
            seed_hash: this.seed,
            next_seed_hash: this.nextSeed,
            status: 'OK',
          },
        };
      case 'get_info':
        return { result: { top_block_hash: this.prevHash, height, status: 'OK' } };
      case 'get_last_block_header':
        return { result: { block_header: { hash: this.prevHash, height: height - 1 }, status: 'OK' } };
      case 'submit_block':
        // A fake node cannot check the block: counted, and refused as monerod refuses a bad one.
        this.submittedBlocks++;
        return { error: { code: -7, message: 'Block not accepted' } };
      default:
        return { error: { code: -32601, message: `Method not found: ${method}` } };
    }
  }
}
