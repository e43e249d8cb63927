const DAY_MS = 86_400_000;

/** When a token or link made at `now` expires: `days` later, or never (null). */
export function expiryOf(now: number, days: number | null): Date | null {
  return days === null ? null : new Date(now + days * DAY_MS);
}

export const isoOrNull = (value: Date | null): string | null => (value === null ? null : value.toISOString());
