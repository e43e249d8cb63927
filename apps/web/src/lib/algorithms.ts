import type { Algorithm } from './api-types';

/** Display names of algorithm ids (technical names, identical in English and Arabic). */
export const ALGORITHM_LABELS: Record<Algorithm, string> = {
  sha256: 'SHA-256',
  scrypt: 'Scrypt',
  ethash: 'Ethash',
  kadena: 'Kadena (Blake2s)',
  kaspa: 'Kaspa (kHeavyHash)',
  equihash: 'Equihash',
  octopus: 'Octopus',
  filecoin: 'Filecoin',
  randomx: 'RandomX',
};

export function algorithmLabel(id: string): string {
  return (ALGORITHM_LABELS as Record<string, string>)[id] ?? id;
}

const SCHEME_LABELS: Record<string, string> = {
  'pps-plus': 'PPS+',
  pplns: 'PPLNS',
  solo: 'SOLO',
  pps: 'PPS',
  fpps: 'FPPS',
};

/** 'pps-plus' -> 'PPS+' (the seed's revenue rows say "With PPS+"). */
export function schemeLabel(scheme: string): string {
  return SCHEME_LABELS[scheme] ?? scheme.toUpperCase();
}
