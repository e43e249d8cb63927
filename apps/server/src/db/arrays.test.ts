import { describe, expect, it } from 'vitest';
import { numberArray, textArray } from './arrays.js';

describe('PostgreSQL array literals', () => {
  it('writes numbers as PostgreSQL reads them, refusing NaN and infinities', () => {
    expect(numberArray([])).toBe('{}');
    expect(numberArray([1, -2, 0.5, 1e-10, 2 ** 53])).toBe('{1,-2,0.5,1e-10,9007199254740992}');
    expect(() => numberArray([Number.NaN])).toThrow(RangeError);
    expect(() => numberArray([Number.POSITIVE_INFINITY])).toThrow(RangeError);
  });

  it('quotes every text element and escapes quotes and backslashes', () => {
    expect(textArray(['BTC', 'pps-plus'])).toBe('{"BTC","pps-plus"}');
    expect(textArray(['a"b', 'c\\d', 'NULL', '', "x'); DROP TABLE shares;--"])).toBe(
      String.raw`{"a\"b","c\\d","NULL","","x'); DROP TABLE shares;--"}`,
    );
  });
});
