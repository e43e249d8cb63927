import { describe, expect, it } from 'vitest';
import { normalizeNumber, parseDecimalNumber, parseWholeNumber } from './numbers';

describe('numbers as people type them', () => {
  it('reads Arabic-Indic and Eastern Arabic-Indic digits and the Arabic decimal separator as 0.05', () => {
    expect(normalizeNumber('٠٫٠٥')).toBe('0.05');
    expect(normalizeNumber('۰٫۰۵')).toBe('0.05');
    expect(normalizeNumber(' 0.05 ')).toBe('0.05');
    expect(normalizeNumber('١٢٣٤٥٦٧٨٩٠')).toBe('1234567890');
    expect(normalizeNumber('۱۲۳۴۵۶۷۸۹۰')).toBe('1234567890');
  });

  it('parses whole and decimal numbers in any of those digits and refuses anything else', () => {
    expect(parseWholeNumber('١٥')).toBe(15);
    expect(parseWholeNumber('۳۰')).toBe(30);
    expect(parseWholeNumber('15')).toBe(15);
    expect(parseWholeNumber('1.5')).toBeNull();
    expect(parseWholeNumber('abc')).toBeNull();
    expect(parseDecimalNumber('٢٫٥')).toBe(2.5);
    expect(parseDecimalNumber('۲٫۵')).toBe(2.5);
    expect(parseDecimalNumber('2.5')).toBe(2.5);
    expect(parseDecimalNumber('2,5')).toBeNull();
    expect(parseDecimalNumber('')).toBeNull();
  });
});
