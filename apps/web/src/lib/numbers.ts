// The one reader of numbers as people type them: ASCII digits, Arabic-Indic digits (٠-٩),
// Eastern Arabic-Indic digits (۰-۹), and the Arabic decimal separator (٫) all read alike. Every
// numeric field passes its text through normalizeNumber before parsing it.

const ARABIC_INDIC_ZERO = 0x0660;
const EASTERN_ARABIC_INDIC_ZERO = 0x06f0;

/**
 * The typed text with every digit as ASCII and the Arabic decimal separator (٫) as ".", trimmed:
 * "٠٫٠٥" and "۰٫۰۵" -> "0.05". Anything else is kept as typed (the caller's parser refuses it).
 */
export function normalizeNumber(text: string): string {
  let out = '';
  for (const char of text.trim()) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= ARABIC_INDIC_ZERO && code <= ARABIC_INDIC_ZERO + 9)
      out += String.fromCharCode(48 + code - ARABIC_INDIC_ZERO);
    else if (code >= EASTERN_ARABIC_INDIC_ZERO && code <= EASTERN_ARABIC_INDIC_ZERO + 9)
      out += String.fromCharCode(48 + code - EASTERN_ARABIC_INDIC_ZERO);
    else if (char === '\u066b') out += '.';
    else out += char;
  }
  return out;
}

/** A whole number typed in any of those digits ("١٥" -> 15), else null. */
export function parseWholeNumber(text: string): number | null {
  const ascii = normalizeNumber(text);
  return /^\d+$/.test(ascii) ? Number(ascii) : null;
}

/** A decimal number typed in any of those digits and separators ("٠٫٥" -> 0.5), else null. */
export function parseDecimalNumber(text: string): number | null {
  const ascii = normalizeNumber(text);
  return /^(\d+(\.\d*)?|\.\d+)$/.test(ascii) ? Number(ascii) : null;
}
