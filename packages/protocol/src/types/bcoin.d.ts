// The slice of bcoin 1.0 (a JavaScript Bitcoin full node) that protocol tests use to
// cross-check serialization. bcoin ships no type declarations.
declare module 'bcoin' {
  interface BcoinScript {
    toRaw(): Buffer;
    getCoinbaseHeight(): number;
  }
  interface BcoinInput {
    script: BcoinScript;
    witness: { items: Buffer[] };
  }
  interface BcoinOutput {
    script: BcoinScript;
    value: number;
  }
  interface BcoinTX {
    inputs: BcoinInput[];
    outputs: BcoinOutput[];
    txid(): string;
    wtxid(): string;
    hasWitness(): boolean;
    isCoinbase(): boolean;
  }
  interface BcoinBlock {
    txs: BcoinTX[];
    merkleRoot: string;
    rhash(): string;
    createMerkleRoot(enc: 'hex'): string | null;
    getCommitmentHash(enc: 'hex'): string | null;
    createCommitmentHash(enc: 'hex'): string;
    getCoinbaseHeight(): number;
    checkBody(): [boolean, string, number];
    verifyPOW(): boolean;
  }
  interface BcoinAddress {
    toString(network?: string): string;
  }
  interface BcoinKeyRing {
    witness: boolean;
    getAddress(): BcoinAddress;
  }
  interface BcoinCoin {
    value: number;
  }
  interface BcoinMTX {
    addCoin(coin: BcoinCoin): void;
    addOutput(address: BcoinAddress, value: number): void;
    sign(ring: BcoinKeyRing): number;
    toTX(): BcoinTX & { toRaw(): Buffer };
  }
  interface BcoinRpcResponse {
    result: unknown;
    error: { message: string; code: number } | null;
  }
  interface BcoinFullNode {
    open(): Promise<void>;
    close(): Promise<void>;
    rpc: {
      call(body: { method: string; params: unknown[]; id: number }, query: object): Promise<BcoinRpcResponse>;
    };
    chain: { getBlock(hashInternalHex: string): Promise<BcoinBlock | null> };
  }
  const bcoin: {
    FullNode: new (options: {
      network: string;
      memory: boolean;
      workers: boolean;
      listen: boolean;
      logLevel: string;
      httpHost?: string;
      httpPort?: number;
    }) => BcoinFullNode;
    KeyRing: { generate(): BcoinKeyRing };
    Coin: { fromTX(tx: BcoinTX, index: number, height: number): BcoinCoin };
    MTX: new () => BcoinMTX;
    Block: { fromRaw(raw: Buffer): BcoinBlock };
    Script: { fromRaw(raw: Buffer): BcoinScript; fromAddress(address: BcoinAddress): BcoinScript };
    Address: { fromString(address: string, network?: string): BcoinAddress };
    networks: Record<string, { genesisBlock: string }>;
  };
  export default bcoin;
}
