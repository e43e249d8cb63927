/**
 * First Strong Isolate … Pop Directional Isolate around a coin code, unit or address put into a
 * translated string (a label, an aria-label: places where no <bdi> element can go), so it stays
 * left-to-right inside Arabic text.
 */
export const isolate = (text: string): string => `\u2068${text}\u2069`;
