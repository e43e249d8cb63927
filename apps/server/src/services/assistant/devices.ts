// Mining devices the assistant recognises by model, with the maker's published hashrate and power
// draw (wall watts at stock settings). A named device tells the assistant which algorithm (and so
// which port of PORT_TABLE) a question is about, and what an electricity question should use.
import type { SeedAlgorithm } from './algorithms.js';
import { keywordIndex, type Prepared } from './matcher.js';
import type { Keyword } from './algorithms.js';

export interface Device {
  name: string;
  algorithm: SeedAlgorithm;
  hardware: 'asic';
  /** Hashes per second at stock settings. */
  hashrate: number;
  watts: number;
  keywords: readonly Keyword[];
}

const w = (text: string): Keyword => ({ words: text.split(' '), mode: 'word' });
const TH = 1e12;
const GH = 1e9;

/** Longer model names first, so "S19 Pro" is not read as "S19". */
export const DEVICES: readonly Device[] = [
  {
    name: 'Antminer S19j Pro',
    algorithm: 'SHA-256',
    hardware: 'asic',
    hashrate: 100 * TH,
    watts: 3050,
    keywords: [w('s19j pro'), w('s19jpro')],
  },
  {
    name: 'Antminer S19 XP',
    algorithm: 'SHA-256',
    hardware: 'asic',
    hashrate: 140 * TH,
    watts: 3010,
    keywords: [w('s19 xp'), w('s19xp')],
  },
  {
    name: 'Antminer S19 Pro',
    algorithm: 'SHA-256',
    hardware: 'asic',
    hashrate: 110 * TH,
    watts: 3250,
    keywords: [w('s19 pro'), w('s19pro')],
  },
  {
    name: 'Antminer S19',
    algorithm: 'SHA-256',
    hardware: 'asic',
    hashrate: 95 * TH,
    watts: 3250,
    keywords: [w('s19')],
  },
  {
    name: 'Antminer S21',
    algorithm: 'SHA-256',
    hardware: 'asic',
    hashrate: 200 * TH,
    watts: 3500,
    keywords: [w('s21')],
  },
  {
    name: 'Whatsminer M30S',
    algorithm: 'SHA-256',
    hardware: 'asic',
    hashrate: 88 * TH,
    watts: 3344,
    keywords: [w('m30s')],
  },
  {
    name: 'Antminer L9',
    algorithm: 'Scrypt',
    hardware: 'asic',
    hashrate: 16 * GH,
    watts: 3360,
    keywords: [w('l9')],
  },
  {
    name: 'Antminer L7',
    algorithm: 'Scrypt',
    hardware: 'asic',
    hashrate: 9.5 * GH,
    watts: 3425,
    keywords: [w('l7')],
  },
];

/** The first device model the message names, if any. */
export function findDevice(prepared: Prepared): Device | undefined {
  return DEVICES.find((device) => device.keywords.some((keyword) => keywordIndex(prepared, keyword) >= 0));
}
