import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/Icon';
import { REDUCED_MOTION, useMediaQuery } from '../../lib/useMediaQuery';

export const QUOTE_INTERVAL_MS = 8000;
const QUOTE_KEYS = [
  'home.quotes.q1',
  'home.quotes.q2',
  'home.quotes.q3',
  'home.quotes.q4',
  'home.quotes.q5',
  'home.quotes.q6',
  'home.quotes.q7',
] as const;

/** Seven quotes rotating every 8 s, with manual controls; no auto-rotation when motion is reduced or paused. */
export function QuoteBanner() {
  const { t } = useTranslation();
  const reducedMotion = useMediaQuery(REDUCED_MOTION);
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const rotating = !reducedMotion && !paused;

  useEffect(() => {
    if (!rotating) return undefined;
    const timer = setInterval(() => setIndex((i) => (i + 1) % QUOTE_KEYS.length), QUOTE_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [rotating]);

  const move = (delta: number): void => setIndex((i) => (i + delta + QUOTE_KEYS.length) % QUOTE_KEYS.length);
  const key = QUOTE_KEYS[index] ?? QUOTE_KEYS[0];
  return (
    <section
      className="quotes"
      aria-roledescription={t('home.quotesRole')}
      aria-label={t('home.quotesLabel')}
    >
      <blockquote className="quotes__text" aria-live={rotating ? 'off' : 'polite'}>
        <p>{t(key)}</p>
      </blockquote>
      <div className="quotes__controls">
        <button
          type="button"
          className="icon-btn"
          onClick={() => move(-1)}
          aria-label={t('home.quotesPrevious')}
        >
          <Icon name="chevron" className="flip-open" />
        </button>
        <span className="tabular muted">
          {t('home.quotesPosition', { current: index + 1, total: QUOTE_KEYS.length })}
        </span>
        <button type="button" className="icon-btn" onClick={() => move(1)} aria-label={t('home.quotesNext')}>
          <Icon name="chevron" />
        </button>
        {!reducedMotion ? (
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            aria-pressed={paused}
            onClick={() => setPaused((p) => !p)}
          >
            {paused ? t('home.quotesPlay') : t('home.quotesPause')}
          </button>
        ) : null}
      </div>
    </section>
  );
}
