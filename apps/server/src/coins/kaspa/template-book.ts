// The KAS templates a port takes shares on: each kaspad block template (from kaspad itself, or in a
// region from the core's job feed) becomes a KaspaTemplate when its pre-PoW hash changed; the
// newest KAS_KEPT_TEMPLATES are kept while still valid (template-source.ts: STALE).
import {
  bytesToHex,
  kaspaBitsToTarget,
  kaspaBlockHash,
  kaspaPowState,
  kaspaPrePowHash,
  kaspaTargetDifficulty,
  kaspaTargetWords,
  parseKaspaCoinbasePayload,
  parseRpcBlockHeader,
  type KaspaHeader,
  type KaspaPowState,
} from '@manjam/protocol/kaspa';
import type { RpcBlock } from './kaspad-wire.js';

/** Templates kept for shares (older ones are gone: "Stale job"). */
export const KAS_KEPT_TEMPLATES = 64;
export interface KaspaTemplate {
  /** 1, 2, ... in this process: the job id's first part. */
  readonly seq: number;
  readonly block: RpcBlock;
  readonly header: KaspaHeader;
  readonly prePow: Uint8Array;
  readonly prePowHex: string;
  readonly timestamp: bigint;
  readonly bits: number;
  readonly target: bigint;
  readonly targetWords: Uint32Array;
  /** The network target as Stratum difficulty (1 = 2^224 - 1). */
  readonly networkDifficulty: number;
  readonly daaScore: bigint;
  /**
   * Sompi the block itself earns once merged as blue (kaspad's subsidy at its DAA score, from the
   * coinbase payload; its fees come on top): what a share of the template is valued at (PPS). The
   * coinbase's outputs pay the blocks the template merges, not the template itself.
   */
  readonly subsidy: bigint;
  readonly pow: KaspaPowState;
  /** Its parents differ from the previous template's (miners should drop old work). */
  readonly newParents: boolean;
  /** When a newer template replaced it (undefined while current). */
  replacedAtMs: number | undefined;
}

export function isStaleTemplate(template: KaspaTemplate, nowMs: number, validMs: number): boolean {
  return template.replacedAtMs !== undefined && nowMs - template.replacedAtMs > validMs;
}

/** The template's block with the miner's nonce set, and its hash: what SubmitBlock takes. */
export function kaspaBlockWithNonce(
  template: KaspaTemplate,
  nonce: bigint,
): { block: RpcBlock; hash: string } {
  const hash = bytesToHex(kaspaBlockHash({ ...template.header, nonce }));
  const block: RpcBlock = {
    ...template.block,
    header: { ...template.block.header!, nonce: nonce.toString() },
  };
  return { block, hash };
}

export class KaspaTemplateBook {
  private readonly templates = new Map<number, KaspaTemplate>();
  private readonly listeners = new Set<(template: KaspaTemplate) => void>();
  private latest: KaspaTemplate | undefined;
  private seq = 0;

  constructor(readonly jobValidMs: number) {}

  get current(): KaspaTemplate | undefined {
    return this.latest;
  }

  /** A template still taking shares, by its seq. */
  get(seq: number): KaspaTemplate | undefined {
    return this.templates.get(seq);
  }

  onTemplate(listener: (template: KaspaTemplate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Hands `block` out as the new template; false when its pre-PoW hash is the current one's
   * (unless `again`: work that stopped is handed out afresh).
   */
  take(block: RpcBlock, again = false): boolean {
    const template = this.toTemplate(block, again);
    if (!template) return false;
    this.publish(template);
    return true;
  }

  /** Every template handed out stops taking shares at once ("Stale job"): the coin's work stopped. */
  expireAll(): void {
    for (const template of this.templates.values()) template.replacedAtMs = 0;
  }

  private toTemplate(block: RpcBlock, again: boolean): KaspaTemplate | undefined {
    if (!block.header) throw new Error('kaspad sent a template without a header');
    const header = parseRpcBlockHeader(block.header);
    const prePow = kaspaPrePowHash(header);
    const prePowHex = bytesToHex(prePow);
    const previous = this.latest;
    if (!again && previous?.prePowHex === prePowHex) return undefined;
    const target = kaspaBitsToTarget(header.bits);
    const parentsKey = (h: KaspaHeader): string => (h.parents[0] ?? []).map(bytesToHex).join(',');
    const coinbase = block.transactions[0];
    return {
      seq: ++this.seq,
      block,
      header,
      prePow,
      prePowHex,
      timestamp: header.timestamp,
      bits: header.bits,
      target,
      targetWords: kaspaTargetWords(target),
      networkDifficulty: kaspaTargetDifficulty(target),
      daaScore: header.daaScore,
      subsidy: coinbase ? parseKaspaCoinbasePayload(coinbase.payload).subsidy : 0n,
      pow: kaspaPowState(prePow, header.timestamp),
      newParents: !previous || parentsKey(previous.header) !== parentsKey(header),
      replacedAtMs: undefined,
    };
  }

  private publish(template: KaspaTemplate): void {
    const now = Date.now();
    if (this.latest) this.latest.replacedAtMs = now;
    this.latest = template;
    this.templates.set(template.seq, template);
    for (const [seq, old] of this.templates) {
      if (this.templates.size <= KAS_KEPT_TEMPLATES && !isStaleTemplate(old, now, this.jobValidMs)) break;
      if (seq !== template.seq) this.templates.delete(seq);
    }
    for (const listener of this.listeners) listener(template);
  }
}
