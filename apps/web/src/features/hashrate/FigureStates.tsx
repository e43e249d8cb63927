// What a figure shows before it has one: a placeholder while its first answer is on the way (never
// a 0 that reads as a figure), a plain line when the load failed, and once loaded the time its
// figures were read ("Figures as of 14:05", the API's asOf).
import { useTranslation } from 'react-i18next';
import { FiguresAge } from '../../components';

/** Stands in for a figure until its first answer. */
export function FigurePlaceholder() {
  const { t } = useTranslation();
  return (
    <span className="figure-placeholder" aria-busy="true">
      <span aria-hidden="true">…</span>
      <span className="visually-hidden">{t('figures.loading')}</span>
    </span>
  );
}

/** Said where figures would be when their load failed. */
export function FiguresError() {
  const { t } = useTranslation();
  return (
    <p className="figures-error" role="alert">
      {t('figures.loadError')}
    </p>
  );
}

/** "Figures as of 14:05": when the answer's figures were read (nothing without an asOf). */
export function FiguresAsOf({ asOf }: { asOf: string | undefined }) {
  const { t } = useTranslation();
  const line = (time: string) => t('figures.asOf', { time });
  return <FiguresAge at={asOf ?? null} behind={false} upTo={line} late={line} />;
}
