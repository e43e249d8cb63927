// How old the money figures are: "Credited up to 14:05" under a balance or an earnings figure, and
// a plain warning when the pool's accounting has fallen behind (the server judges it: creditsBehind).
import { useTranslation } from 'react-i18next';
import { FiguresAge } from '../../components';
import type { Unsettled } from '../api-types';

export function CreditedUpTo({ figures }: { figures: Pick<Unsettled, 'creditedUpTo' | 'creditsBehind'> }) {
  const { t } = useTranslation();
  return (
    <FiguresAge
      at={figures.creditedUpTo}
      behind={figures.creditsBehind}
      upTo={(time) => t('revenue.money.creditedUpTo', { time })}
      late={(time) => t('revenue.money.creditsBehind', { time })}
    />
  );
}
