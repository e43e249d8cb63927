import { ALGORITHM_PAGE_IDS, portRowOfAccountAlgorithm, type AlgorithmPageId } from '@manjam/contract';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { CopyButton } from '../../components/CopyButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Ltr } from '../../components/Ltr';
import { Spinner } from '../../components/Spinner';
import { screensOfAlgorithm } from '../../coins/screens';
import { schemeLabel } from '../../lib/algorithms';
import { useAuth } from '../../lib/auth';
import { formatNumber } from '../../lib/format';
import { usePoolPorts, usePoolStats } from '../../lib/queries';

/** The algorithms with a page of their own (/mining/:id, the port table's `page`); other screens link to these only. */
export const PAGE_IDS = ALGORITHM_PAGE_IDS;
export type { AlgorithmPageId };

interface PageDefaults {
  port: number;
  /** The seed's published fee and payout interval; null for a row it publishes none for (RandomX). */
  fee: number | null;
  payoutHours: number | null;
  /** A CPU algorithm (RandomX) is mined with XMRig, with a difficulty counted in hashes. */
  cpu: boolean;
}

/** The algorithm pages and the seed's published defaults (port, fee, payout interval) from PORT_TABLE. */
export const ALGORITHM_PAGES = Object.fromEntries(
  PAGE_IDS.map((id) => {
    const row = portRowOfAccountAlgorithm(id);
    if (!row) throw new RangeError(`the port table has no row for ${id}`);
    const defaults: PageDefaults = {
      port: row.port,
      fee: row.published ? row.published.feeBasisPoints / 100 : null,
      payoutHours: row.published?.payoutHours ?? null,
      cpu: row.hardware === 'cpu',
    };
    return [id, defaults];
  }),
) as Record<AlgorithmPageId, PageDefaults>;

export function isAlgorithmPageId(value: string | undefined): value is AlgorithmPageId {
  return value !== undefined && Object.hasOwn(ALGORITHM_PAGES, value);
}

interface Facts {
  port: number;
  fee: number | null;
  payoutHours: number | null;
  live: boolean | null;
  scheme: string | null;
  host: string;
  ports: { port: number; scheme: string }[];
}

function useFacts(id: AlgorithmPageId): { facts: Facts; loading: boolean; failed: boolean } {
  const stats = usePoolStats();
  const ports = usePoolPorts();
  const defaults = ALGORITHM_PAGES[id];
  const stat = stats.data?.algorithms.find((a) => a.algorithm === id);
  // The ports list names PORT_TABLE algorithms (kadena's port is 'blake2s').
  const portAlgorithm = portRowOfAccountAlgorithm(id)?.algorithm;
  const port = ports.data?.ports.find((p) => p.algorithm === portAlgorithm);
  const facts: Facts = {
    port: stat?.port ?? port?.port ?? defaults.port,
    fee: stat?.fee ?? defaults.fee,
    payoutHours: stat?.payoutInterval ?? defaults.payoutHours,
    live: stat?.live ?? port?.live ?? null,
    scheme: stat?.scheme ?? null,
    /** Every live port of the algorithm with its own payout scheme (a coin may have a PPS+, a PPLNS and a SOLO port). */
    ports: (stats.data?.algorithms ?? [])
      .filter((a) => a.algorithm === id && a.live && a.scheme)
      .map((a) => ({ port: a.port, scheme: a.scheme ?? '' })),
    host: stats.data?.host ?? ports.data?.host ?? window.location.hostname,
  };
  return { facts, loading: stats.isPending && ports.isPending, failed: stats.isError && ports.isError };
}

function AlgorithmDetails({ id }: { id: AlgorithmPageId }) {
  const { t } = useTranslation();
  const { facts, loading, failed } = useFacts(id);
  const url = `stratum+tcp://${facts.host}:${facts.port}`;
  const name = t(`algorithm.names.${id}`);
  const { user } = useAuth();
  const stratumUser = user ? `${user.username}.worker1` : 'username.worker_name';
  const ports = usePoolPorts();
  const liveNames = (ports.data?.ports ?? [])
    .filter((p) => p.live && p.protocol !== 'v2')
    .map((p) => p.name)
    .join(', ');
  const Miners = screensOfAlgorithm(id)?.Miners;
  return (
    <article className="container page">
      <header className="page__header">
        <h1>{t('algorithm.title', { name })}</h1>
        <p className="page__lead">{t(`algorithm.intro.${id}`)}</p>
        <p className="muted">{t(`algorithm.coins.${id}`)}</p>
      </header>
      {failed ? <ErrorBanner message={t('algorithm.loadError')} /> : null}
      <section className="card" aria-labelledby="facts-title">
        <h2 id="facts-title">{t('algorithm.facts')}</h2>
        {loading ? <Spinner /> : null}
        <dl className="facts">
          <div>
            <dt>{t('algorithm.status')}</dt>
            <dd>
              {facts.live === null ? (
                '—'
              ) : (
                <span className={`badge badge--${facts.live ? 'success' : 'muted'}`}>
                  {facts.live ? t('algorithm.live') : t('algorithm.notLive')}
                </span>
              )}
            </dd>
          </div>
          <div>
            <dt>{t('algorithm.connection')}</dt>
            <dd className="row">
              <Ltr>{url}</Ltr>
              {facts.live === true ? (
                <CopyButton
                  text={url}
                  ariaLabel={t('common.copyField', { field: t('algorithm.connection') })}
                />
              ) : null}
            </dd>
            {facts.live === false ? (
              <dd className="muted">{t('algorithm.notLiveNote', { name, live: liveNames })}</dd>
            ) : null}
          </div>
          <div>
            <dt>{t('algorithm.port')}</dt>
            <dd>
              <Ltr>{facts.port}</Ltr>
            </dd>
          </div>
          <div>
            <dt>{t('algorithm.username')}</dt>
            <dd className="row">
              <span>
                {t('algorithm.usernameValue')} <Ltr>{stratumUser}</Ltr>
              </span>
              {facts.live === true ? (
                <CopyButton
                  text={stratumUser}
                  ariaLabel={t('common.copyField', { field: t('algorithm.username') })}
                />
              ) : null}
            </dd>
          </div>
          <div>
            <dt>{t('algorithm.password')}</dt>
            <dd>{ALGORITHM_PAGES[id].cpu ? t('algorithm.cpuPassword') : <Ltr>x</Ltr>}</dd>
          </div>
          <div>
            <dt>{t('algorithm.fee')}</dt>
            <dd>
              {facts.fee === null ? (
                '—'
              ) : (
                <Ltr
                  mono={false}
                >{`${formatNumber(facts.fee, undefined, { minimumFractionDigits: 1 })}%`}</Ltr>
              )}
            </dd>
          </div>
          <div>
            <dt>{t('algorithm.payoutInterval')}</dt>
            <dd>{facts.payoutHours === null ? '—' : t('units.hours', { count: facts.payoutHours })}</dd>
          </div>
          {facts.ports.length > 1 ? (
            <div>
              <dt>{t('algorithm.scheme')}</dt>
              <dd>
                <ul className="plain-list">
                  {facts.ports.map((p) => (
                    <li key={p.port}>
                      <Ltr>{p.port}</Ltr> · <Ltr mono={false}>{schemeLabel(p.scheme)}</Ltr>
                    </li>
                  ))}
                </ul>
              </dd>
            </div>
          ) : facts.scheme ? (
            <div>
              <dt>{t('algorithm.scheme')}</dt>
              <dd>
                <Ltr mono={false}>{schemeLabel(facts.scheme)}</Ltr>
              </dd>
            </div>
          ) : null}
        </dl>
      </section>
      {Miners && facts.live === true ? (
        <section className="card" style={{ marginBlockStart: 'var(--space-5)' }}>
          <Miners
            host={facts.host}
            port={facts.port}
            username={stratumUser}
            worker={stratumUser.slice(stratumUser.indexOf('.') + 1)}
          />
        </section>
      ) : null}
      <p className="row" style={{ marginBlockStart: 'var(--space-5)' }}>
        <Link to="/mining/calculator" className="btn btn--primary">
          {t('algorithm.calculator')}
        </Link>
        <Link to="/help" className="btn btn--ghost">
          {t('footer.links.help')}
        </Link>
      </p>
    </article>
  );
}

export default function AlgorithmPage() {
  const { algorithm } = useParams();
  if (!isAlgorithmPageId(algorithm)) return <Navigate to="/404" replace />;
  return <AlgorithmDetails id={algorithm} />;
}
