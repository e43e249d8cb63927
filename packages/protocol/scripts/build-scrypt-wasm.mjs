// Generates src/scrypt-simd/romix4-wasm.mjs: Litecoin's scrypt core (ROMix, N=1024, r=1) for four
// headers at once in WebAssembly SIMD. This script is the source; the generated file is committed
// (scrypt-simd.test.ts checks that it matches a fresh build). Run: node packages/protocol/scripts/build-scrypt-wasm.mjs
//
// Why four at once: Salsa20/8 is a chain of dependent add-rotate-xor steps, so one hash at a time
// waits on latency. With one hash per i32x4 lane, the four quarter-rounds of each half-round are
// independent and every vector instruction does four hashes' work: about twice Node's (OpenSSL's)
// scrypt per core on this machine's x86-64.
//
// Memory layout (bytes): X, the four 128-byte blocks being mixed, at 0: word w (0-31) of hash k
// (0-3) at w*16 + k*4. V, the 1,024 saved states, at 1024: iteration i at 1024 + i*512, same
// layout. Pages: 1024 + 512 KiB -> 9 pages of 64 KiB.
import { compileWat, moduleSource, writeModule } from './wasm-module.mjs';

const N = 1024;
const V_OFFSET = 1024;
const STATE_BYTES = 512;

// Salsa20 quarter-rounds as [target, a, b, rotation]: target ^= rotl(a + b, rotation).
const COLUMNS = [
  [
    [4, 0, 12, 7],
    [8, 4, 0, 9],
    [12, 8, 4, 13],
    [0, 12, 8, 18],
  ],
  [
    [9, 5, 1, 7],
    [13, 9, 5, 9],
    [1, 13, 9, 13],
    [5, 1, 13, 18],
  ],
  [
    [14, 10, 6, 7],
    [2, 14, 10, 9],
    [6, 2, 14, 13],
    [10, 6, 2, 18],
  ],
  [
    [3, 15, 11, 7],
    [7, 3, 15, 9],
    [11, 7, 3, 13],
    [15, 11, 7, 18],
  ],
];
const ROWS = [
  [
    [1, 0, 3, 7],
    [2, 1, 0, 9],
    [3, 2, 1, 13],
    [0, 3, 2, 18],
  ],
  [
    [6, 5, 4, 7],
    [7, 6, 5, 9],
    [4, 7, 6, 13],
    [5, 4, 7, 18],
  ],
  [
    [11, 10, 9, 7],
    [8, 11, 10, 9],
    [9, 8, 11, 13],
    [10, 9, 8, 18],
  ],
  [
    [12, 15, 14, 7],
    [13, 12, 15, 9],
    [14, 13, 12, 13],
    [15, 14, 13, 18],
  ],
];

const step = ([target, a, b, n], t) =>
  `(local.set $t${t} (i32x4.add (local.get $x${a}) (local.get $x${b})))\n` +
  `(local.set $x${target} (v128.xor (local.get $x${target}) (v128.or (i32x4.shl (local.get $t${t}) (i32.const ${n})) (i32x4.shr_u (local.get $t${t}) (i32.const ${32 - n})))))`;

/** The four quarter-rounds of a half-round, interleaved step by step (independent chains). */
function halfRound(quarterRounds) {
  const lines = [];
  for (let s = 0; s < 4; s++) for (let q = 0; q < 4; q++) lines.push(step(quarterRounds[q][s], q));
  return lines.join('\n');
}

const vec = (word) => `offset=${word * 16} (i32.const 0)`;

/** Block at word `base` ^= block at word `other`, then Salsa20/8 of it in place. */
function xorSalsa(base, other) {
  const lines = [];
  for (let w = 0; w < 16; w++)
    lines.push(`(local.set $x${w} (v128.xor (v128.load ${vec(base + w)}) (v128.load ${vec(other + w)})))`);
  for (let w = 0; w < 16; w++) lines.push(`(v128.store ${vec(base + w)} (local.get $x${w}))`);
  lines.push(`(local.set $r (i32.const 4))`);
  lines.push(
    `(loop $double${base}\n${halfRound(COLUMNS)}\n${halfRound(ROWS)}\n(br_if $double${base} (local.tee $r (i32.sub (local.get $r) (i32.const 1)))))`,
  );
  for (let w = 0; w < 16; w++)
    lines.push(`(v128.store ${vec(base + w)} (i32x4.add (local.get $x${w}) (v128.load ${vec(base + w)})))`);
  return lines.join('\n');
}

// BlockMix for r = 1: B0 = salsa(B0 ^ B1); B1 = salsa(B1 ^ B0).
const blockMix = `${xorSalsa(0, 16)}\n${xorSalsa(16, 0)}`;

const saveState = Array.from(
  { length: 32 },
  (_, w) => `(v128.store offset=${w * 16} (local.get $p) (v128.load ${vec(w)}))`,
).join('\n');

// X ^= V[j_k] lane by lane, j_k = Integerify(X_k) mod N = word 16 of hash k, masked.
const xorSaved = [];
for (let k = 0; k < 4; k++) {
  xorSaved.push(
    `(local.set $j${k} (i32.add (i32.const ${V_OFFSET + k * 4}) (i32.shl (i32.and (i32.load offset=${16 * 16 + k * 4} (i32.const 0)) (i32.const ${N - 1})) (i32.const 9))))`,
  );
}
for (let w = 0; w < 32; w++) {
  const lanes = `(i32x4.replace_lane 3 (i32x4.replace_lane 2 (i32x4.replace_lane 1 (i32x4.splat (i32.load offset=${w * 16} (local.get $j0))) (i32.load offset=${w * 16} (local.get $j1))) (i32.load offset=${w * 16} (local.get $j2))) (i32.load offset=${w * 16} (local.get $j3)))`;
  xorSaved.push(`(v128.store ${vec(w)} (v128.xor (v128.load ${vec(w)}) ${lanes}))`);
}

const wat = `(module
(memory (export "memory") 9)
(func (export "romix4")
${Array.from({ length: 16 }, (_, i) => `(local $x${i} v128)`).join(' ')}
(local $t0 v128) (local $t1 v128) (local $t2 v128) (local $t3 v128)
(local $i i32) (local $r i32) (local $p i32) (local $j0 i32) (local $j1 i32) (local $j2 i32) (local $j3 i32)
(local.set $i (i32.const 0))
(loop $fill
(local.set $p (i32.add (i32.const ${V_OFFSET}) (i32.mul (local.get $i) (i32.const ${STATE_BYTES}))))
${saveState}
${blockMix}
(br_if $fill (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1))) (i32.const ${N}))))
(local.set $i (i32.const 0))
(loop $mix
${xorSaved.join('\n')}
${blockMix}
(br_if $mix (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1))) (i32.const ${N}))))
))`;

/** The module's bytes, compiled from the generated text. */
export function buildRomix4Wasm() {
  return compileWat('romix4.wat', wat);
}

export function romix4Source(bytes) {
  return moduleSource(
    'build-scrypt-wasm.mjs',
    'ROMix (scrypt N=1024, r=1) for four headers at once, WebAssembly SIMD.',
    'ROMIX4_WASM_BASE64',
    bytes,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const bytes = await buildRomix4Wasm();
  writeModule(new URL('../src/scrypt-simd/romix4-wasm.mjs', import.meta.url), romix4Source(bytes), bytes);
}
