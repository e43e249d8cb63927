import { useTranslation } from 'react-i18next';
import { Ltr } from '../../components';
import { decimalsOf, PORT_TABLE } from '@manjam/contract';
import { baseUnitsToDecimal, formatHashrate, formatNumber, formatRelative } from '../../lib/format';
import type { LookupMiner, SearchResult } from '../api-types';
import { StatusDot } from '../miners/MinersTable';

/** Earnings in base units with the miner's coin, else the coin of its algorithm (8 decimals when unknown). */
export function formatEarnings(baseUnits: string, algorithm: string, minerCoin?: string | null): string {
  const coin = minerCoin ?? PORT_TABLE.find((row) => row.account === algorithm.toLowerCase())?.coin;
  const decimals = decimalsOf(coin ?? '');
  try {
    const text = baseUnitsToDecimal(baseUnits, decimals);
    return coin ? `${text} ${coin}` : text;
  } catch {
    return baseUnits;
  }
}

function MinerCard({ miner }: { miner: LookupMiner }) {
  const { t } = useTranslation();
  const algorithm = t(`miners.algorithms.${miner.algorithm}`, { defaultValue: miner.algorithm });
  return (
    <li className="search-miner card">
      <div className="search-miner__head">
        <strong>
          <Ltr mono={false}>{miner.name}</Ltr>
        </strong>
        <StatusDot status={miner.status} label={t(`search.status.${miner.status}`)} />
        <span className="badge badge--muted">{t(`search.source.${miner.source}`)}</span>
      </div>
      <dl className="search-miner__facts">
        <div>
          <dt>{t('search.algorithm')}</dt>
          <dd>{algorithm}</dd>
        </div>
        <div>
          <dt>{t('search.hashrate')}</dt>
          <dd>
            <Ltr mono={false} className="tabular">
              {formatHashrate(miner.hashrate)}
            </Ltr>
          </dd>
        </div>
        <div>
          <dt>{t('search.shares')}</dt>
          <dd className="tabular">
            {t('search.accepted')} {formatNumber(miner.shares.accepted)} · {t('search.rejected')}{' '}
            {formatNumber(miner.shares.rejected)} (
            {t('search.staleOf', { stale: formatNumber(miner.shares.stale) })})
          </dd>
        </div>
        <div>
          <dt>{t('search.earnings')}</dt>
          <dd>
            {(['daily', 'weekly', 'monthly'] as const).map((period) => (
              <span key={period} className="search-miner__earning">
                {t(`search.${period}`)}{' '}
                <Ltr className="tabular">
                  {formatEarnings(miner.earnings[period], miner.algorithm, miner.coin)}
                </Ltr>
              </span>
            ))}
          </dd>
        </div>
        <div>
          <dt>{t('search.lastSeen')}</dt>
          <dd>{miner.lastSeen ? formatRelative(miner.lastSeen) : t('search.never')}</dd>
        </div>
      </dl>
    </li>
  );
}

export function SearchResults({ query, results }: { query: string; results: readonly SearchResult[] }) {
  const { t } = useTranslation();
  return (
    <div className="search-results">
      <h3 className="search-results__title">{t('search.resultsFor', { query: `\u2066${query}\u2069` })}</h3>
      {results.map((result) => (
        <section key={result.address} className="search-result" aria-label={result.address}>
          <p className="search-result__address">
            <span className="muted">{t('search.address')}</span> <Ltr>{result.address}</Ltr>{' '}
            <span className="muted">({t('search.minersCount', { count: result.miners.length })})</span>
          </p>
          <ul className="search-result__miners">
            {result.miners.map((miner) => (
              <MinerCard key={miner.id} miner={miner} />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
