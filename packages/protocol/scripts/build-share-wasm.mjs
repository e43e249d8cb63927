// Generates src/share-simd/share4-wasm.ts: the SHA-256d work of four Stratum shares of one job at
// once in WebAssembly SIMD (one share per i32x4 lane): coinbase hash, merkle branch, block header
// hash. This script is the source; the generated file is committed (share-batch.test.ts checks
// that it matches a fresh build). Run: node packages/protocol/scripts/build-share-wasm.mjs
//
// Memory layout (bytes). Vectors are i32x4 with lane k = share k; SHA-256 words are big-endian
// values (as the hash reads them).
//   0     STATE   8 vectors, the running hash state
//   128   MSG    16 vectors, the block being compressed
//   384   W      64 vectors, its message schedule
//   1408  ROOT    8 vectors, the merkle root (then the current node while walking the branch)
//   1536  OUT     8 vectors, the block hash (SHA-256d of the header)
//   1664  LANE    3 vectors: header words 0 (version), 17 (ntime), 19 (nonce), per share
//   1712  SHARED  9 words: header words 1-8 (previous block hash) and 18 (bits), for all shares
//   1792  BRANCH  up to 64 steps x 8 words, the job's merkle branch
//   4096  COINBASE  share k's padded coinbase bytes at 4096 + k * 1024 (at most 16 blocks)
import { compileWat, moduleSource, writeModule } from './wasm-module.mjs';

const STATE = 0,
  MSG = 128,
  W = 384,
  ROOT = 1408,
  OUT = 1536,
  LANE = 1664,
  SHARED = 1712,
  BRANCH = 1792,
  COINBASE = 4096;
const LANE_BYTES = 1024;

const K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
];
const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const splat = (value) => `(v128.const i32x4 ${value | 0} ${value | 0} ${value | 0} ${value | 0})`;
const at = (base, index) => `offset=${base + index * 16} (i32.const 0)`;
const load = (base, index) => `(v128.load ${at(base, index)})`;
const store = (base, index, value) => `(v128.store ${at(base, index)} ${value})`;
const rotr = (x, n) => `(v128.or (i32x4.shr_u ${x} (i32.const ${n})) (i32x4.shl ${x} (i32.const ${32 - n})))`;
const xor3 = (a, b, c) => `(v128.xor (v128.xor ${a} ${b}) ${c})`;
const add = (...xs) => xs.reduce((sum, x) => `(i32x4.add ${sum} ${x})`);

// compress: STATE += SHA-256 compression of MSG (schedule in W).
function compressFunction() {
  const lines = [];
  for (let i = 0; i < 16; i++) lines.push(store(W, i, load(MSG, i)));
  for (let i = 16; i < 64; i++) {
    const w15 = load(W, i - 15);
    const w2 = load(W, i - 2);
    const s0 = xor3(rotr(w15, 7), rotr(w15, 18), `(i32x4.shr_u ${w15} (i32.const 3))`);
    const s1 = xor3(rotr(w2, 17), rotr(w2, 19), `(i32x4.shr_u ${w2} (i32.const 10))`);
    lines.push(store(W, i, add(load(W, i - 16), s0, load(W, i - 7), s1)));
  }
  const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
  names.forEach((n, i) => lines.push(`(local.set $${n} ${load(STATE, i)})`));
  for (let i = 0; i < 64; i++) {
    const S1 = xor3(rotr('(local.get $e)', 6), rotr('(local.get $e)', 11), rotr('(local.get $e)', 25));
    const ch = '(v128.bitselect (local.get $f) (local.get $g) (local.get $e))';
    lines.push(`(local.set $t1 ${add('(local.get $h)', S1, ch, splat(K[i]), load(W, i))})`);
    const S0 = xor3(rotr('(local.get $a)', 2), rotr('(local.get $a)', 13), rotr('(local.get $a)', 22));
    const maj = '(v128.bitselect (local.get $b) (local.get $a) (v128.xor (local.get $a) (local.get $c)))';
    lines.push(`(local.set $t2 ${add(S0, maj)})`);
    lines.push('(local.set $h (local.get $g)) (local.set $g (local.get $f)) (local.set $f (local.get $e))');
    lines.push('(local.set $e (i32x4.add (local.get $d) (local.get $t1)))');
    lines.push('(local.set $d (local.get $c)) (local.set $c (local.get $b)) (local.set $b (local.get $a))');
    lines.push('(local.set $a (i32x4.add (local.get $t1) (local.get $t2)))');
  }
  names.forEach((n, i) => lines.push(store(STATE, i, `(i32x4.add ${load(STATE, i)} (local.get $${n}))`)));
  return `(func $compress
(local $a v128) (local $b v128) (local $c v128) (local $d v128) (local $e v128) (local $f v128) (local $g v128) (local $h v128) (local $t1 v128) (local $t2 v128)
${lines.join('\n')})`;
}

const resetState = IV.map((v, i) => store(STATE, i, splat(v))).join('\n');

// MSG = the 32-byte digest in STATE, padded; STATE = IV; compress. (The second SHA-256 of SHA-256d.)
const secondHash = [
  ...Array.from({ length: 8 }, (_, i) => store(MSG, i, load(STATE, i))),
  store(MSG, 8, splat(0x80000000)),
  ...Array.from({ length: 6 }, (_, i) => store(MSG, 9 + i, splat(0))),
  store(MSG, 15, splat(256)),
  resetState,
  '(call $compress)',
].join('\n');

// Big-endian words from each lane's coinbase bytes: one load per lane, then a byte swap per lane.
const BSWAP = '(v128.const i8x16 3 2 1 0 7 6 5 4 11 10 9 8 15 14 13 12)';
function coinbaseWord(w) {
  const lane = (k) => `(i32.load offset=${COINBASE + k * LANE_BYTES + w * 4} (local.get $p))`;
  const gathered = `(i32x4.replace_lane 3 (i32x4.replace_lane 2 (i32x4.replace_lane 1 (i32x4.splat ${lane(0)}) ${lane(1)}) ${lane(2)}) ${lane(3)})`;
  return store(MSG, w, `(i8x16.swizzle ${gathered} ${BSWAP})`);
}

const shared = (index) => `(i32x4.splat (i32.load offset=${SHARED + index * 4} (i32.const 0)))`;

const share4 = `(func (export "share4") (param $blocks i32) (param $steps i32)
(local $p i32) (local $s i32) (local $q i32)
;; Coinbase: SHA-256d of each lane's padded bytes ($blocks blocks).
${resetState}
(local.set $p (i32.const 0))
(loop $coinbase
${Array.from({ length: 16 }, (_, w) => coinbaseWord(w)).join('\n')}
(call $compress)
(br_if $coinbase (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 64))) (i32.mul (local.get $blocks) (i32.const 64)))))
${secondHash}
${Array.from({ length: 8 }, (_, i) => store(ROOT, i, load(STATE, i))).join('\n')}
;; Merkle branch: node = SHA-256d(node || step), the step the same for every lane.
(local.set $s (i32.const 0))
(block $done
(loop $branch
(br_if $done (i32.ge_u (local.get $s) (local.get $steps)))
(local.set $q (i32.add (i32.const ${BRANCH}) (i32.mul (local.get $s) (i32.const 32))))
${Array.from({ length: 8 }, (_, i) => store(MSG, i, load(ROOT, i))).join('\n')}
${Array.from({ length: 8 }, (_, i) => store(MSG, 8 + i, `(i32x4.splat (i32.load offset=${i * 4} (local.get $q)))`)).join('\n')}
${resetState}
(call $compress)
${store(MSG, 0, splat(0x80000000))}
${Array.from({ length: 14 }, (_, i) => store(MSG, 1 + i, splat(0))).join('\n')}
${store(MSG, 15, splat(512))}
(call $compress)
${secondHash}
${Array.from({ length: 8 }, (_, i) => store(ROOT, i, load(STATE, i))).join('\n')}
(local.set $s (i32.add (local.get $s) (i32.const 1)))
(br $branch)))
;; Header: version | previous hash | merkle root | ntime | bits | nonce, then SHA-256d.
${store(MSG, 0, load(LANE, 0))}
${Array.from({ length: 8 }, (_, i) => store(MSG, 1 + i, shared(i))).join('\n')}
${Array.from({ length: 7 }, (_, i) => store(MSG, 9 + i, load(ROOT, i))).join('\n')}
${resetState}
(call $compress)
${store(MSG, 0, load(ROOT, 7))}
${store(MSG, 1, load(LANE, 1))}
${store(MSG, 2, shared(8))}
${store(MSG, 3, load(LANE, 2))}
${store(MSG, 4, splat(0x80000000))}
${Array.from({ length: 10 }, (_, i) => store(MSG, 5 + i, splat(0))).join('\n')}
${store(MSG, 15, splat(640))}
(call $compress)
${secondHash}
${Array.from({ length: 8 }, (_, i) => store(OUT, i, load(STATE, i))).join('\n')})`;

const wat = `(module
(memory (export "memory") 1)
${compressFunction()}
${share4})`;

/** The module's bytes, compiled from the generated text. */
export function buildShare4Wasm() {
  return compileWat('share4.wat', wat);
}

export function share4Source(bytes) {
  return moduleSource(
    'build-share-wasm.mjs',
    'SHA-256d of four Stratum shares of one job at once (coinbase, merkle branch, header), WebAssembly SIMD.',
    'SHARE4_WASM_BASE64',
    bytes,
  );
}

export const SHARE4_LAYOUT = { STATE, MSG, W, ROOT, OUT, LANE, SHARED, BRANCH, COINBASE, LANE_BYTES };

if (import.meta.url === `file://${process.argv[1]}`) {
  const bytes = await buildShare4Wasm();
  writeModule(new URL('../src/share-simd/share4-wasm.ts', import.meta.url), share4Source(bytes), bytes);
}
