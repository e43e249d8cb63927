// The Arabic glossary: one term per concept across the web catalogs and the server's texts
// (notifications, emails, the assistant), so a reader never meets two words for one thing.
import { describe, expect, it } from 'vitest';
import ar from './ar.json';
import featuresAr from './features.ar.json';
// The server's Arabic texts as plain text (Vite's ?raw): the web never imports server code.
// Its catalog, and each coin family's own texts in its folder (the catalogs merge them).
import SERVER_AR from '../../../server/src/i18n/ar.ts?raw';

const SERVER_FAMILY_TEXTS = Object.values(
  import.meta.glob<string>('../../../server/src/coins/*/texts.ts', {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
);

/** Each concept's chosen term, and the variants that must not appear. */
const GLOSSARY = [
  { concept: 'hashrate', term: 'معدل التجزئة', variants: [/معدل الهاش/, /هاش ?ريت/] },
  // Workers (Stratum logins) are العمّال, always with the shadda.
  {
    concept: 'workers',
    term: 'العمّال',
    variants: [/(?<![\u0600-\u06FF])(?:ال|لل|ل|و|وال)?عمال(?![\u0600-\u06FF])/],
  },
  { concept: 'authorized (a worker login accepted)', term: 'قُبل دخول العامل', variants: [/تم التصريح/] },
] as const;

function strings(tree: unknown): string[] {
  if (typeof tree === 'string') return [tree];
  if (typeof tree !== 'object' || tree === null) return [];
  return Object.values(tree).flatMap(strings);
}

const TEXTS = [...strings(ar), ...strings(featuresAr), SERVER_AR, ...SERVER_FAMILY_TEXTS];

describe('the Arabic glossary', () => {
  it("reads every coin family's server texts", () => {
    expect(SERVER_FAMILY_TEXTS.some((text) => text.includes('assistant.setup.kaspa'))).toBe(true);
  });

  it.each(GLOSSARY)('uses one term for $concept ($term)', ({ term, variants }) => {
    const offending = TEXTS.filter((text) => variants.some((variant) => variant.test(text)));
    expect(offending).toEqual([]);
    expect(TEXTS.some((text) => text.includes(term))).toBe(true);
  });
});
