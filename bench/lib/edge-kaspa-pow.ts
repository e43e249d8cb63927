// Drill phase `kaspa-pow`: the Kaspa protocol layer's refusals, in figures (asserts nothing).
// No pool yet (KAS is wired in a later merge), so this phase drives the pure functions the Kaspa
// dialect will call, on one core: honest shares mined at a tiny difficulty, then the same
// submits replayed with a malformed nonce, a foreign extranonce, one nonce too high (low
// difficulty); and payout addresses with a flipped checksum, another network's prefix, an unknown
// version, mixed case. It prints what was accepted and refused and what each check cost.
import {
  decodeKaspaAddress,
  isKaspaAddress,
  KaspaAddressError,
  type KaspaNetwork,
  kaspaMeetsTarget,
  kaspaPowState,
  kaspaPowWords,
  kaspaPowWordsOf,
  kaspaShareTarget,
  kaspaTargetWords,
  kaspaNonceValue,
  parseKaspaSubmitNonce,
} from '@manjam/protocol/kaspa';
import { interleaved, SAMPLE_PRE_POW, SAMPLE_TIMESTAMP } from './kheavyhash-speed.js';
import { Report, codes, fixed, int, load } from './report.js';

interface Options {
  shares: number;
  seconds: number;
}

function parse(argv: string[]): Options {
  const options: Options = { shares: 200, seconds: 2 };
  for (const arg of argv) {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    if (key === 'shares') options.shares = Math.max(1, Number(value));
    if (key === 'seconds') options.seconds = Math.max(0.5, Number(value));
  }
  return options;
}

const EXTRANONCE = 'c3';
/** 2^-24: one share in 256 hashes, so honest shares can be mined here in a moment. */
const DIFFICULTY = 2 ** -24;

/** Mine `count` honest nonces (miner part only, as a miner submits them) at DIFFICULTY. */
function mineShares(count: number): string[] {
  const state = kaspaPowState(SAMPLE_PRE_POW, SAMPLE_TIMESTAMP);
  const target = kaspaTargetWords(kaspaShareTarget(DIFFICULTY));
  const out = new Uint32Array(8);
  const found: string[] = [];
  for (let miner = 0; found.length < count; miner++) {
    kaspaPowWordsOf(state, miner >>> 0, 0xc3000000, out);
    if (kaspaMeetsTarget(out, target))
      found.push((miner >>> 0).toString(16).padStart(8, '0').padStart(14, '0'));
  }
  return found;
}

type Outcome = 'accepted' | 'malformed' | 'foreign-extranonce' | 'low-difficulty';

function validate(
  nonce: unknown,
  extranonce: string,
  targetWords: Uint32Array,
  state: ReturnType<typeof kaspaPowState>,
): Outcome {
  const parsed = parseKaspaSubmitNonce(nonce, extranonce);
  if (!parsed.ok) return parsed.error[1].includes('extranonce') ? 'foreign-extranonce' : 'malformed';
  return kaspaMeetsTarget(kaspaPowWords(state, kaspaNonceValue(parsed.value)), targetWords)
    ? 'accepted'
    : 'low-difficulty';
}

function submitsPhase(report: Report, options: Options): void {
  const honest = mineShares(options.shares);
  const state = kaspaPowState(SAMPLE_PRE_POW, SAMPLE_TIMESTAMP);
  const target = kaspaTargetWords(kaspaShareTarget(DIFFICULTY));
  const submits: { nonce: unknown; extranonce: string }[] = [];
  for (const nonce of honest) {
    submits.push({ nonce, extranonce: EXTRANONCE }); // honest, miner part only
    submits.push({ nonce: `0x${EXTRANONCE}${nonce}`, extranonce: EXTRANONCE }); // honest, full nonce
    submits.push({ nonce: `0x${nonce}zz`, extranonce: EXTRANONCE });
    submits.push({ nonce: `0xd4${nonce}`, extranonce: EXTRANONCE });
    submits.push({
      nonce: (BigInt(`0x${nonce}`) + 1n).toString(16).padStart(14, '0'),
      extranonce: EXTRANONCE,
    });
  }
  const counts: Record<Outcome, number> = {
    accepted: 0,
    malformed: 0,
    'foreign-extranonce': 0,
    'low-difficulty': 0,
  };
  for (const s of submits) counts[validate(s.nonce, s.extranonce, target, state)]++;
  // An honest submit's full check (parse, extranonce, kHeavyHash, target) against bare hashing,
  // in alternating 100 ms slices so both see the same load on this shared machine.
  const out = new Uint32Array(8);
  const [validated, raw] = interleaved(
    options.seconds,
    (i) => validate(honest[i % honest.length], EXTRANONCE, target, state),
    (i) => kaspaPowWordsOf(state, i >>> 0, 0xc3000000, out),
  );
  report.line(
    `submits: ${int(submits.length)} at difficulty 2^-24 (${int(honest.length)} honest nonces, each also sent whole, malformed, under a foreign extranonce, and the next nonce: refused unless it is a share too)`,
  );
  report.line(
    `  outcomes: ${int(counts.accepted)} accepted; refused ${codes({ malformed: counts.malformed, 'foreign-extranonce': counts['foreign-extranonce'], 'low-difficulty': counts['low-difficulty'] })}`,
  );
  report.line(
    `  honest submits validated ${int(validated)}/s (parse + extranonce + kHeavyHash + target) vs raw ${int(raw)} kHeavyHash/s on the same core: ${fixed((100 * validated) / raw, 0)} %`,
  );
}

const ADDRESSES: [label: string, address: string, network: KaspaNetwork][] = [
  ['valid mainnet', 'kaspa:qr35ennsep3hxfe7lnz5ee7j5jgmkjswsn35ennsep3hxfe7ln35cdv0dy335', 'mainnet'],
  ['flipped checksum', 'kaspa:qr35ennsep3hxfe7lnz5ee7j5jgmkjswsn35ennsep3hxfe7ln35cdv0dy336', 'mainnet'],
  [
    'testnet on mainnet',
    'kaspatest:qputx94qseratdmjs0j395mq8u03er0x3l35ennsep3hxfe7ln35ckquw528z',
    'mainnet',
  ],
  ['unknown version', 'kaspasim:raskzctpv9skzctpv9skzctpv9skzctpvy37ct7zafpv9skzctpvymmnd3gh8', 'simnet'],
  ['mixed case', 'kaspa:Qr35ennsep3hxfe7lnz5ee7j5jgmkjswsn35ennsep3hxfe7ln35cdv0dy335', 'mainnet'],
];

function addressPhase(report: Report): void {
  for (const [label, address, network] of ADDRESSES) {
    let reason = 'accepted';
    const rounds = 2000;
    for (let i = 0; i < 200; i++) isKaspaAddress(address, network); // warm-up
    const start = performance.now();
    for (let i = 0; i < rounds; i++) {
      try {
        decodeKaspaAddress(address, network);
        reason = 'accepted';
      } catch (error) {
        reason = error instanceof KaspaAddressError ? `refused: ${error.reason}` : 'threw';
      }
    }
    const us = ((performance.now() - start) * 1000) / rounds;
    report.line(`  address ${label.padEnd(18)} -> ${reason.padEnd(20)} ${fixed(us, 1)} µs per check`);
  }
}

export async function runEdgeKaspaPow(report: Report, argv: string[]): Promise<void> {
  const options = parse(argv);
  report.line(`== kaspa-pow (node ${process.version}, load ${load()})`);
  submitsPhase(report, options);
  report.line('payout addresses:');
  addressPhase(report);
  await Promise.resolve();
}
