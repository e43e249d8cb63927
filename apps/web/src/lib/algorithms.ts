import { ALGORITHMS, portRowOfAccountAlgorithm, type AlgorithmId } from '@manjam/contract';

/** Display name of an algorithm id: its PORT_TABLE name (technical, identical in English and Arabic). */
export function algorithmLabel(id: string): string {
  const known = ALGORITHMS.find((algorithm): algorithm is AlgorithmId => algorithm === id);
  return (known && portRowOfAccountAlgorithm(known)?.name) ?? id;
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
