// The account's live workers no declared miner claims, each with a Declare button that opens Add
// Miner prefilled from it (its name as the miner's worker name, its port's algorithm).
import { useTranslation } from 'react-i18next';
import { Private } from '../../components';
import { Ltr } from '../../components/Ltr';
import { formatHashrate } from '../../lib/format';
import type { UndeclaredWorker } from '../api-types';

export function UndeclaredWorkers({
  workers,
  onDeclare,
}: {
  workers: readonly UndeclaredWorker[];
  onDeclare: (worker: UndeclaredWorker) => void;
}) {
  const { t } = useTranslation();
  if (workers.length === 0) return null;
  return (
    <section className="undeclared stack" aria-labelledby="undeclared-title">
      <h3 id="undeclared-title">{t('miners.undeclared.title')}</h3>
      <p className="muted">{t('miners.undeclared.hint')}</p>
      <ul className="undeclared__list">
        {workers.map((w) => (
          <li key={w.id} className="undeclared__item">
            <span className="undeclared__name">
              <Ltr mono={false}>{w.name}</Ltr>
            </span>
            <span className="muted">{t(`miners.algorithms.${w.algorithm}`)}</span>
            <Private kind="hashrate">
              <Ltr mono={false} className="tabular">
                {formatHashrate(w.hashrate)}
              </Ltr>
            </Private>
            <button
              type="button"
              className="btn btn--primary btn--sm"
              aria-label={t('miners.undeclared.declareNamed', { name: w.name })}
              onClick={() => onDeclare(w)}
            >
              {t('miners.undeclared.declare')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
