/** Coinbase transaction construction around the Stratum extranonce. */

export const MAX_COINBASE_SCRIPT_SIG = 100;

/** Bitcoin CompactSize integer. */
export function encodeVarint(n: number): Buffer {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError(`varint must be a non-negative integer, got ${n}`);
  if (n < 0xfd) return Buffer.from([n]);
  if (n <= 0xffff) {
    const b = Buffer.alloc(3);
    b[0] = 0xfd;
    b.writeUInt16LE(n, 1);
    return b;
  }
  if (n <= 0xffffffff) {
    const b = Buffer.alloc(5);
    b[0] = 0xfe;
    b.writeUInt32LE(n, 1);
    return b;
  }
  const b = Buffer.alloc(9);
  b[0] = 0xff;
  b.writeBigUInt64LE(BigInt(n), 1);
  return b;
}

/** Minimal script push of data (direct push or OP_PUSHDATA1/2). */
export function pushData(data: Buffer): Buffer {
  if (data.length < 0x4c) return Buffer.concat([Buffer.from([data.length]), data]);
  if (data.length <= 0xff) return Buffer.concat([Buffer.from([0x4c, data.length]), data]);
  if (data.length <= 0xffff) {
    const head = Buffer.from([0x4d, 0, 0]);
    head.writeUInt16LE(data.length, 1);
    return Buffer.concat([head, data]);
  }
  throw new RangeError(`push of ${data.length} bytes is too large`);
}

/** CScriptNum serialization (little-endian, sign bit in the top byte). */
export function scriptNum(n: number): Buffer {
  if (!Number.isSafeInteger(n)) throw new RangeError(`script number must be an integer, got ${n}`);
  const bytes: number[] = [];
  let abs = Math.abs(n);
  while (abs > 0) {
    bytes.push(abs & 0xff);
    abs = Math.floor(abs / 256);
  }
  const last = bytes[bytes.length - 1];
  if (last !== undefined && last & 0x80) bytes.push(n < 0 ? 0x80 : 0x00);
  else if (last !== undefined && n < 0) bytes[bytes.length - 1] = last | 0x80;
  return Buffer.from(bytes);
}

/**
 * BIP34 height prefix exactly as Core checks it (`CScript() << nHeight`): OP_1..OP_16 for
 * heights 1-16, otherwise a push of the minimal CScriptNum.
 */
export function bip34HeightScript(height: number): Buffer {
  if (!Number.isSafeInteger(height) || height < 0) throw new RangeError(`invalid block height: ${height}`);
  if (height === 0) return Buffer.from([0x00]);
  if (height <= 16) return Buffer.from([0x50 + height]);
  return pushData(scriptNum(height));
}

export interface TxOutput {
  value: bigint;
  script: Buffer;
}

export function serializeOutput(output: TxOutput): Buffer {
  if (output.value < 0n || output.value > 0xffffffffffffffffn)
    throw new RangeError(`bad output value ${output.value}`);
  const value = Buffer.alloc(8);
  value.writeBigUInt64LE(output.value);
  return Buffer.concat([value, encodeVarint(output.script.length), output.script]);
}

export interface CoinbaseParts {
  /** Everything before extranonce1 (non-witness serialization). */
  coinb1: Buffer;
  /** Everything after extranonce2. */
  coinb2: Buffer;
  scriptSigLength: number;
}

export interface CoinbaseSpec {
  height: number;
  poolTag: string;
  extranonce1Size: number;
  extranonce2Size: number;
  outputs: TxOutput[];
}

const COINBASE_VERSION = 2;

function buildScriptSigHead(spec: CoinbaseSpec): { head: Buffer; length: number } {
  const { extranonce1Size: e1, extranonce2Size: e2 } = spec;
  if (!Number.isInteger(e1) || !Number.isInteger(e2) || e1 < 0 || e2 < 1 || e1 + e2 > 0x4b) {
    throw new RangeError(`bad extranonce sizes ${e1}+${e2}`);
  }
  const height = bip34HeightScript(spec.height);
  const tag = Buffer.from(spec.poolTag, 'utf8');
  const tagPush = tag.length > 0 ? pushData(tag) : Buffer.alloc(0);
  // height | tag | push(extranonce1 || extranonce2)
  const head = Buffer.concat([height, tagPush, Buffer.from([e1 + e2])]);
  const length = head.length + e1 + e2;
  if (length > MAX_COINBASE_SCRIPT_SIG) {
    throw new RangeError(
      `coinbase scriptSig would be ${length} bytes (limit ${MAX_COINBASE_SCRIPT_SIG}): shorten the pool tag "${spec.poolTag}"`,
    );
  }
  return { head, length };
}

/** Split the coinbase around the extranonce: coinbase = coinb1 | en1 | en2 | coinb2. */
export function buildCoinbaseParts(spec: CoinbaseSpec): CoinbaseParts {
  if (spec.outputs.length === 0) throw new RangeError('a coinbase needs at least one output');
  const script = buildScriptSigHead(spec);
  const version = Buffer.alloc(4);
  version.writeUInt32LE(COINBASE_VERSION);
  const input = Buffer.concat([Buffer.alloc(32), Buffer.from([0xff, 0xff, 0xff, 0xff])]);
  const coinb1 = Buffer.concat([version, encodeVarint(1), input, encodeVarint(script.length), script.head]);
  const coinb2 = Buffer.concat([
    Buffer.from([0xff, 0xff, 0xff, 0xff]),
    encodeVarint(spec.outputs.length),
    ...spec.outputs.map(serializeOutput),
    Buffer.alloc(4), // lock time 0
  ]);
  return { coinb1, coinb2, scriptSigLength: script.length };
}

/**
 * Witness serialization of a non-witness coinbase: marker/flag and one witness item of 32 zero
 * bytes (the witness reserved value that default_witness_commitment commits to).
 */
export function coinbaseWithWitness(coinbase: Buffer): Buffer {
  const body = coinbase.subarray(4, coinbase.length - 4);
  const witness = Buffer.concat([Buffer.from([0x01, 0x20]), Buffer.alloc(32)]);
  return Buffer.concat([
    coinbase.subarray(0, 4),
    Buffer.from([0x00, 0x01]),
    body,
    witness,
    coinbase.subarray(-4),
  ]);
}
