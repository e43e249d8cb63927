// Formatting rules of the revenue tables (seed: difficulty "36.76 T", status badge colours, pages).

import { currentTimeZone, formatTiny } from '../../lib/format';

const SI_SUFFIXES = ['', 'K', 'M', 'G', 'T', 'P', 'E'] as const;

/** 36_760_000_000_000 -> "36.76 T"; below 1000 the plain number with two decimals; tiny ones 4.66e-10. */
export function formatDifficulty(difficulty: number, locale = 'en'): string {
  if (!Number.isFinite(difficulty) || difficulty <= 0) return '0';
  const tiny = formatTiny(difficulty);
  if (tiny) return tiny;
  const index = Math.min(Math.max(Math.floor(Math.log10(difficulty) / 3), 0), SI_SUFFIXES.length - 1);
  const value = difficulty / 1000 ** index;
  const text = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    value,
  );
  const suffix = SI_SUFFIXES[index] ?? '';
  return suffix ? `${text} ${suffix}` : text;
}

export type BadgeTone = 'success' | 'warning' | 'danger';

/** completed green, pending orange, anything else red. */
export function payoutStatusTone(status: string): BadgeTone {
  if (status === 'completed') return 'success';
  if (status === 'pending') return 'warning';
  return 'danger';
}

/** Number of pages for a server total; at least one so the pager always shows page 1. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(pageSize, 1)));
}

/** Page buttons to show: at most `width` around the current page. */
export function visiblePages(current: number, pages: number, width = 5): number[] {
  const half = Math.floor(width / 2);
  const start = Math.max(1, Math.min(current - half, pages - width + 1));
  const end = Math.min(pages, start + width - 1);
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

/**
 * Settlement time in the miner's chosen zone; with none chosen, in Riyadh time as the seed shows it
 * (00:00 UTC settles at 03:00 AST): "Nov 22, 2026, 03:00".
 */
export function formatSettlement(settledAt: string, locale: string): string {
  const date = new Date(settledAt);
  if (Number.isNaN(date.getTime())) return settledAt;
  return new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    hourCycle: 'h23',
    timeZone: currentTimeZone() ?? 'Asia/Riyadh',
  }).format(date);
}
