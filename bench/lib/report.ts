// Printing: every line goes to stdout and to a results file under bench/results/.
import { mkdirSync, appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname } from 'node:path';

export class Report {
  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
  }

  line(text = ''): void {
    process.stdout.write(text + '\n');
    appendFileSync(this.path, text + '\n');
  }
}

export function int(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function fixed(n: number, digits = 1): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function load(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
}

/**
 * Nearest-rank percentile of `count` samples of which `sorted` (ascending) were measured; the
 * rest never got an answer and rank above every measured one (Infinity when they are reached).
 */
export function percentile(sorted: Float64Array, p: number, count = sorted.length): number {
  if (count === 0) return Number.NaN;
  const rank = Math.min(count, Math.max(1, Math.ceil((p / 100) * count)));
  return rank > sorted.length ? Number.POSITIVE_INFINITY : (sorted[rank - 1] ?? Number.NaN);
}

/** Milliseconds with 2 decimals, or "unanswered" for a percentile that falls on a lost reply. */
export function ms(n: number): string {
  return Number.isFinite(n) ? `${fixed(n, 2)} ms` : 'unanswered';
}

export function codes(rejected: Record<string, number>): string {
  const entries = Object.entries(rejected).filter(([, n]) => n > 0);
  return entries.length === 0 ? 'none' : entries.map(([code, n]) => `${int(n)} x ${code}`).join(', ');
}

export function verdict(ok: boolean): string {
  return ok ? 'MET' : 'NOT MET';
}
