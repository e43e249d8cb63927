import type { AlertKind } from '../../db/repositories/alerts.js';
import { formatAmount, formatHashrate, formatTime } from '../assistant/format.js';

// An alert's title and body in the user's language, rendered from its stored payload, so the
// in-app list and the email say the same thing.

export type AlertLanguage = 'en' | 'ar';

export interface RenderedAlert {
  title: string;
  body: string;
}

type Payload = Record<string, unknown>;

const text = (payload: Payload, key: string): string => {
  const value = payload[key];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '-';
};
const num = (payload: Payload, key: string): number => {
  const value = payload[key];
  return typeof value === 'number' ? value : Number(value ?? 0);
};
const time = (payload: Payload, key: string): string => {
  const value = payload[key];
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? formatTime(new Date(value)) : '-';
};
const amount = (payload: Payload): string => {
  const raw = payload.amount;
  return typeof raw === 'string' && /^-?\d+$/.test(raw) ? formatAmount(BigInt(raw), text(payload, 'coin')) : '-';
};

type Renderer = (payload: Payload) => RenderedAlert;

const EN: Record<AlertKind, Renderer> = {
  'worker-offline': (p) => ({
    title: `Worker ${text(p, 'worker')} is offline`,
    body: `Worker ${text(p, 'worker')} (${text(p, 'coin')}) has sent no accepted share for ${text(p, 'minutes')} minutes. Last share: ${time(p, 'lastShareAt')}. Check its power, network and pool settings.`,
  }),
  'worker-recovered': (p) => ({
    title: `Worker ${text(p, 'worker')} is back online`,
    body: `Worker ${text(p, 'worker')} (${text(p, 'coin')}) is sending shares again since ${time(p, 'backSince')}, after about ${text(p, 'downtimeMinutes')} minutes offline.`,
  }),
  'hashrate-drop': (p) => ({
    title: `Hashrate of ${text(p, 'worker')} dropped`,
    body: `Worker ${text(p, 'worker')} (${text(p, 'coin')}) runs at ${formatHashrate(num(p, 'current'))}, below ${text(p, 'percent')}% of its 24 h average of ${formatHashrate(num(p, 'average'))}.`,
  }),
  'block-found': (p) => p.count !== undefined ? ({
    title: `${text(p, 'count')} more ${text(p, 'coin')} blocks found`,
    body: `Between ${time(p, 'periodStart')} and ${time(p, 'periodEnd')} the pool found ${text(p, 'count')} more ${text(p, 'coin')} blocks (heights ${text(p, 'fromHeight')} to ${text(p, 'toHeight')})${p.mine === true ? ', some with shares from your workers' : ''}. Their rewards are credited when they mature.`,
  }) : ({
    title: `Block ${text(p, 'height')} found`,
    body: `The pool found ${text(p, 'coin')} block ${text(p, 'height')} (${text(p, 'hash')})${p.mine === true ? ', with a share from one of your workers' : ''}. Its reward is credited when it matures.`,
  }),
  'payout-sent': (p) => ({
    title: `Payout of ${amount(p)} sent`,
    body: `${amount(p)} was sent to ${text(p, 'address')}. Transaction: ${text(p, 'txid')}.`,
  }),
};

const AR: Record<AlertKind, Renderer> = {
  'worker-offline': (p) => ({
    title: `العامل ${text(p, 'worker')} غير متصل`,
    body: `لم يرسل العامل ${text(p, 'worker')} (${text(p, 'coin')}) أي حصة مقبولة منذ ${text(p, 'minutes')} دقيقة. آخر حصة: ${time(p, 'lastShareAt')}. تحقق من الكهرباء والشبكة وإعدادات المجمع.`,
  }),
  'worker-recovered': (p) => ({
    title: `عاد العامل ${text(p, 'worker')} إلى العمل`,
    body: `العامل ${text(p, 'worker')} (${text(p, 'coin')}) يرسل الحصص مجدداً منذ ${time(p, 'backSince')}، بعد انقطاع دام نحو ${text(p, 'downtimeMinutes')} دقيقة.`,
  }),
  'hashrate-drop': (p) => ({
    title: `انخفض معدل الهاش للعامل ${text(p, 'worker')}`,
    body: `العامل ${text(p, 'worker')} (${text(p, 'coin')}) يعمل بمعدل ${formatHashrate(num(p, 'current'))}، أي أقل من ${text(p, 'percent')}% من متوسطه خلال 24 ساعة البالغ ${formatHashrate(num(p, 'average'))}.`,
  }),
  'block-found': (p) => p.count !== undefined ? ({
    title: `كتل ${text(p, 'coin')} أخرى عُثر عليها: ${text(p, 'count')}`,
    body: `بين ${time(p, 'periodStart')} و${time(p, 'periodEnd')} عثر المجمع على كتل ${text(p, 'coin')} أخرى عددها ${text(p, 'count')} (الارتفاعات من ${text(p, 'fromHeight')} إلى ${text(p, 'toHeight')})${p.mine === true ? '، بعضها بحصص من عمالك' : ''}. تُضاف المكافآت عند نضج الكتل.`,
  }) : ({
    title: `تم العثور على الكتلة ${text(p, 'height')}`,
    body: `عثر المجمع على كتلة ${text(p, 'coin')} رقم ${text(p, 'height')} (${text(p, 'hash')})${p.mine === true ? ' بحصة من أحد عمالك' : ''}. تُضاف المكافأة عند نضج الكتلة.`,
  }),
  'payout-sent': (p) => ({
    title: `تم إرسال دفعة بقيمة ${amount(p)}`,
    body: `أُرسل مبلغ ${amount(p)} إلى ${text(p, 'address')}. المعاملة: ${text(p, 'txid')}.`,
  }),
};

export function renderAlert(kind: AlertKind, payload: Payload, language: AlertLanguage): RenderedAlert {
  return (language === 'ar' ? AR : EN)[kind](payload);
}

const FOOTER: Record<AlertLanguage, string> = {
  en: 'You receive this email because email alerts are on in your Manjam settings.',
  ar: 'تصلك هذه الرسالة لأن تنبيهات البريد الإلكتروني مفعّلة في إعدادات منجم.',
};

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The email for an alert: subject, plain text and right-to-left HTML for Arabic. */
export function renderEmail(kind: AlertKind, payload: Payload, language: AlertLanguage): { subject: string; text: string; html: string } {
  const { title, body } = renderAlert(kind, payload, language);
  const dir = language === 'ar' ? 'rtl' : 'ltr';
  const brand = language === 'ar' ? 'منجم' : 'Manjam';
  return {
    subject: `${brand}: ${title}`,
    text: `${body}\n\n${FOOTER[language]}\n`,
    html: `<!doctype html><html lang="${language}" dir="${dir}"><body dir="${dir}"><h2>${escapeHtml(title)}</h2><p>${escapeHtml(body)}</p><p><small>${escapeHtml(FOOTER[language])}</small></p></body></html>`,
  };
}
