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
  const bcoin: {
    Block: { fromRaw(raw: Buffer): BcoinBlock };
    Script: { fromRaw(raw: Buffer): BcoinScript; fromAddress(address: BcoinAddress): BcoinScript };
    Address: { fromString(address: string, network?: string): BcoinAddress };
    networks: Record<string, { genesisBlock: string }>;
  };
  export default bcoin;
}
