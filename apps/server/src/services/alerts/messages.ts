import type { Language } from '@manjam/contract';
import type { AlertKind } from '../../db/repositories/alerts.js';
import { formatCoinAmount } from '@manjam/protocol';
import { text, type TextValues } from '../../i18n/index.js';
import { formatHashrate, formatTime } from '../shared/format.js';

// An alert's title and body in the user's language, rendered from its stored payload, so the
// in-app list and the email say the same thing.

export type AlertLanguage = Language;

export interface RenderedAlert {
  title: string;
  body: string;
}

type Payload = Record<string, unknown>;

const str = (payload: Payload, key: string): string => {
  const value = payload[key];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : '-';
};
const num = (payload: Payload, key: string): number => {
  const value = payload[key];
  return typeof value === 'number' ? value : Number(value ?? 0);
};
const time = (payload: Payload, key: string, timeZone: string): string => {
  const value = payload[key];
  return typeof value === 'string' && !Number.isNaN(Date.parse(value))
    ? formatTime(new Date(value), timeZone)
    : '-';
};
const amount = (payload: Payload): string => {
  const raw = payload.amount;
  return typeof raw === 'string' && /^-?\d+$/.test(raw)
    ? formatCoinAmount(BigInt(raw), str(payload, 'coin'))
    : '-';
};

const minutes = (payload: Payload, key: string, language: AlertLanguage): string => {
  const value = num(payload, key);
  return Number.isFinite(value) ? text(language, 'duration.minutes', { count: value }) : '-';
};

/** `zone`: the reader's time zone (services/shared/format.ts userTimeZone). */
type Renderer = (p: Payload, language: AlertLanguage, zone: string) => RenderedAlert;

/** A worker alert: its worker and coin plus the kind's own values, in the title and the body. */
function workerAlert(
  kind: 'workerOffline' | 'workerRecovered' | 'hashrateDrop',
  values: (p: Payload, l: AlertLanguage, zone: string) => TextValues,
): Renderer {
  return (p, l, zone) => {
    const all = { worker: str(p, 'worker'), coin: str(p, 'coin'), ...values(p, l, zone) };
    return { title: text(l, `alert.${kind}.title`, all), body: text(l, `alert.${kind}.body`, all) };
  };
}

/** Several blocks of one period in one alert (alerts.blockBatchMinutes): counted, with their height range. */
function blocksFound(p: Payload, l: AlertLanguage, zone: string): RenderedAlert {
  const values = {
    count: num(p, 'count'),
    coin: str(p, 'coin'),
    from: time(p, 'periodStart', zone),
    to: time(p, 'periodEnd', zone),
    fromHeight: str(p, 'fromHeight'),
    toHeight: str(p, 'toHeight'),
    mine: p.mine === true ? text(l, 'alert.blocksFound.mine') : '',
  };
  return {
    title: text(l, 'alert.blocksFound.title', values),
    body: text(l, 'alert.blocksFound.body', values),
  };
}

/** Each kind's title and body from the server text catalogs (i18n/en.ts, i18n/ar.ts). */
const RENDER: Record<AlertKind, Renderer> = {
  'worker-offline': workerAlert('workerOffline', (p, l, zone) => ({
    duration: minutes(p, 'minutes', l),
    lastShareAt: time(p, 'lastShareAt', zone),
  })),
  'worker-recovered': workerAlert('workerRecovered', (p, l, zone) => ({
    backSince: time(p, 'backSince', zone),
    duration: minutes(p, 'downtimeMinutes', l),
  })),
  'hashrate-drop': workerAlert('hashrateDrop', (p) => ({
    current: formatHashrate(num(p, 'current')),
    percent: str(p, 'percent'),
    average: formatHashrate(num(p, 'average')),
  })),
  'block-found': (p, l, zone) =>
    p.count !== undefined
      ? blocksFound(p, l, zone)
      : {
          title: text(l, 'alert.blockFound.title', { height: str(p, 'height') }),
          body: text(l, 'alert.blockFound.body', {
            coin: str(p, 'coin'),
            height: str(p, 'height'),
            hash: str(p, 'hash'),
            mine: p.mine === true ? text(l, 'alert.blockFound.mine') : '',
          }),
        },
  'payout-sent': (p, l) => ({
    title: text(l, 'alert.payoutSent.title', { amount: amount(p) }),
    body: text(l, 'alert.payoutSent.body', {
      amount: amount(p),
      address: str(p, 'address'),
      txid: str(p, 'txid'),
    }),
  }),
};

/** `timeZone`: the reader's (userTimeZone: chosen, else their browser's, else UTC). */
export function renderAlert(
  kind: AlertKind,
  payload: Payload,
  language: AlertLanguage,
  timeZone = 'UTC',
): RenderedAlert {
  return RENDER[kind](payload, language, timeZone);
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The email for an alert: subject, plain text and right-to-left HTML for Arabic. */
export function renderEmail(
  kind: AlertKind,
  payload: Payload,
  language: AlertLanguage,
  timeZone = 'UTC',
): { subject: string; text: string; html: string } {
  const { title, body } = renderAlert(kind, payload, language, timeZone);
  const dir = language === 'ar' ? 'rtl' : 'ltr';
  const brand = text(language, 'email.brand');
  const footer = text(language, 'email.footer');
  return {
    subject: `${brand}: ${title}`,
    text: `${body}\n\n${footer}\n`,
    html: `<!doctype html><html lang="${language}" dir="${dir}"><body dir="${dir}"><h2>${escapeHtml(title)}</h2><p>${escapeHtml(body)}</p><p><small>${escapeHtml(footer)}</small></p></body></html>`,
  };
}
