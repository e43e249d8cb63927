// Repeats in the notification list are grouped: notifications of one kind on one (local) day
// become one line ("12 blocks found today") that opens to the single ones.
import type { AppNotification } from './api';

export interface NotificationGroup {
  key: string;
  kind: string;
  /** The local calendar day of the group's notifications (YYYY-MM-DD). */
  day: string;
  items: AppNotification[];
  /** The events the group tells: a batched notification counts each of its events. */
  total: number;
  unread: number;
}

/** The local calendar day of a time, as YYYY-MM-DD. */
export function localDay(value: string | Date): string {
  const date = new Date(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Groups by kind and day, in the order of each group's newest notification (the list is newest first). */
export function groupNotifications(items: readonly AppNotification[]): NotificationGroup[] {
  const groups = new Map<string, NotificationGroup>();
  for (const item of items) {
    const day = localDay(item.createdAt);
    const key = `${item.kind}:${day}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, kind: item.kind, day, items: [], total: 0, unread: 0 };
      groups.set(key, group);
    }
    group.items.push(item);
    group.total += item.count ?? 1;
    if (!item.read) group.unread += 1;
  }
  return [...groups.values()];
}

/** 'today', 'yesterday' or 'earlier' for a group's day, seen from `now`. */
export function dayWord(day: string, now: Date = new Date()): 'today' | 'yesterday' | 'earlier' {
  if (day === localDay(now)) return 'today';
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  return day === localDay(yesterday) ? 'yesterday' : 'earlier';
}

/** A long hexadecimal value (a block hash, a transaction id): shown shortened, the full value in its title. */
const LONG_HEX = /\b[0-9a-fA-F]{40,}\b/g;

export type TextPart = { text: string } | { hex: string; short: string };

/** Splits a notification's text into plain runs and long hexadecimal values. */
export function splitLongHex(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(LONG_HEX)) {
    const start = match.index;
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ hex: match[0], short: `${match[0].slice(0, 8)}…${match[0].slice(-8)}` });
    last = start + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
