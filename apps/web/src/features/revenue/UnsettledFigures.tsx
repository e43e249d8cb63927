// Money from the first share: today's accrued credits (estimated until the daily close) and the
// user's share of found blocks that are not mature yet, shown beside the unpaid balance.
import { useTranslation } from 'react-i18next';
import { Ltr, Private } from '../../components';
import { formatCoin, formatDateTime } from '../../lib/format';
import type { Unsettled } from '../api-types';
import { CreditedUpTo } from './CreditedUpTo';
import './money.css';

export function UnsettledFigures({ unsettled, coin }: { unsettled: Unsettled; coin: string }) {
  const { t } = useTranslation();
  const since = formatDateTime(unsettled.accruedSince);
  return (
    <div className="unsettled">
      <dl className="unsettled__figures">
        <div>
          <dt>{t('revenue.money.accrued')}</dt>
          <dd>
            <Private kind="balance">
              <Ltr mono={false} className="tabular">
                {formatCoin(unsettled.accrued, coin)}
              </Ltr>
            </Private>
          </dd>
        </div>
        <div>
          <dt>{t('revenue.money.immature')}</dt>
          <dd>
            <Private kind="balance">
              <Ltr mono={false} className="tabular">
                {formatCoin(unsettled.immature, coin)}
              </Ltr>
            </Private>
            {unsettled.immatureBlocks > 0 ? (
              <span className="muted">
                {' '}
                · {t('revenue.money.immatureBlocks', { count: unsettled.immatureBlocks })}
              </span>
            ) : null}
          </dd>
        </div>
      </dl>
      <p className="unsettled__note muted">{t('revenue.money.accruedHint', { time: since })}</p>
      <CreditedUpTo figures={unsettled} />
    </div>
  );
}
