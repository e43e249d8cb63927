/**
 * PostgreSQL array literals for bulk parameters (`unnest($1::int[], ...)`), built with one join
 * instead of the driver's per-element escaping: a 10,000-share flush serialized element by
 * element held the Stratum event loop for tens of milliseconds. Only for the hot bulk inserts;
 * everything else passes plain JS arrays.
 */

/** `{1,2.5,-3e-7}` for int/bigint/float8 arrays. Values must be finite numbers. */
export function numberArray(values: readonly number[]): string {
  for (const v of values) if (!Number.isFinite(v)) throw new RangeError(`not a finite number: ${v}`);
  return `{${values.join(',')}}`;
}

/** `{"a","b\"c"}` for text arrays: every element quoted, backslashes and quotes escaped. */
export function textArray(values: readonly string[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as string;
    if (i > 0) out += ',';
    out += /["\\]/.test(v) ? `"${v.replace(/["\\]/g, '\\$&')}"` : `"${v}"`;
  }
  return `${out}}`;
}
