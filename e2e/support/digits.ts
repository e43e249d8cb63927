// Numbers as people in the region type them, for the browser tests of numeric fields.
/** Arabic-Indic (٠-٩) or Eastern Arabic-Indic (۰-۹) digits for the ASCII digits of `text`, "." as "٫". */
export function arabicDigits(text: string, style: 'arabic-indic' | 'eastern'): string {
  const zero = style === 'arabic-indic' ? 0x0660 : 0x06f0;
  return text.replace(/[0-9.]/g, (char) =>
    char === '.' ? '\u066b' : String.fromCharCode(zero + Number(char)),
  );
}
