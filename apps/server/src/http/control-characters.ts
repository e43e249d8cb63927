// One rule for every request: text with control characters is refused with 400
// `control-character` before any route reads it (a NUL byte cannot be stored in PostgreSQL, and
// no id, name, email or query of the API has a use for the others).
// - the path and query string, once percent-decoded: no C0 control (U+0000–U+001F), DEL (U+007F)
//   or C1 control (U+0080–U+009F);
// - every string of a JSON body, and every key: the same, except tab, line feed and carriage
//   return (multi-line text).
import { ServiceError } from '../services/errors.js';

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const IN_URL = /[\u0000-\u001f\u007f-\u009f]/u;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const IN_BODY = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;
/** Nesting a JSON body may have before its strings are no longer looked at one by one. */
const MAX_DEPTH = 64;

export const controlCharacterError = () => new ServiceError(400, 'control-character', 'controlCharacter');

/** True when the URL's path or query, percent-decoded, holds a control character. */
export function urlHasControlCharacter(url: string): boolean {
  if (IN_URL.test(url)) return true;
  if (!url.includes('%')) return false;
  // '+' stays as it is: a space in a query is not a control character either way.
  let decoded: string;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    // Not valid percent-encoding: look at each escape on its own (%00–%1F, %7F, %C2%80–%C2%9F).
    return /%(?:[01][0-9a-f]|7f|c2%[89][0-9a-f])/i.test(url);
  }
  return IN_URL.test(decoded);
}

/** True when a string or key anywhere in `value` (a parsed JSON body) holds a control character. */
export function bodyHasControlCharacter(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return IN_BODY.test(value);
  if (value === null || typeof value !== 'object') return false;
  if (depth > MAX_DEPTH) return true;
  if (Array.isArray(value)) return value.some((item) => bodyHasControlCharacter(item, depth + 1));
  return Object.entries(value as Record<string, unknown>).some(
    ([key, item]) => IN_BODY.test(key) || bodyHasControlCharacter(item, depth + 1),
  );
}
