import {
  ALGORITHM_PAGE_IDS,
  PORT_TABLE,
  type AlgorithmPageId,
  type PortAlgorithm,
  type PortTableEntry,
} from '@manjam/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Icon, type IconName } from '../../components/Icon';
import { Ltr } from '../../components/Ltr';
import { usePoolPorts, usePoolStats, usePortLiveness } from '../../lib/queries';
import { ParticleField } from './ParticleField';
import { QuoteBanner } from './QuoteBanner';
import './home.css';

const FEATURES: { id: 'servers' | 'payouts' | 'stats' | 'security' | 'support' | 'multi'; icon: IconName }[] =
  [
    { id: 'servers', icon: 'globe' },
    { id: 'payouts', icon: 'wallet' },
    { id: 'stats', icon: 'chart' },
    { id: 'security', icon: 'shield' },
    { id: 'support', icon: 'support' },
    { id: 'multi', icon: 'layers' },
  ];

/** A card of the home page's algorithm table. */
interface AlgorithmCard {
  /** Its account id (the /mining/<id> page when `page`), or a marketing row's own id. */
  id: AlgorithmPageId | 'qubic' | 'ravencoin';
  fee: string | null;
  payoutHours: number | null;
  latency: string | null;
  /** The PORT_TABLE algorithm whose port must accept shares before the card offers "Start Mining". */
  port: PortAlgorithm | null;
  page: boolean;
}

/**
 * The seed's marketing cards, before the card of the port table row they stand at: Ravencoin is
 * mined on KawPow; Qubic has no row (its card is never live). The table publishes no fee for them.
 */
const MARKETING: Partial<Record<PortAlgorithm, readonly AlgorithmCard[]>> = {
  kawpow: [
    { id: 'qubic', fee: '1.0%', payoutHours: 24, latency: '38ms', port: null, page: false },
    { id: 'ravencoin', fee: '1.0%', payoutHours: 24, latency: '44ms', port: 'kawpow', page: false },
  ],
};

/**
 * The card of a PORT_TABLE row with a page: its account id, the table's published fee and payout
 * interval (none when the seed publishes none: the pool's stats report them once its port is
 * live), its latency target, and the algorithm itself as its port's liveness key.
 */
function pageCard(row: PortTableEntry): AlgorithmCard[] {
  const id = ALGORITHM_PAGE_IDS.find((page) => page === row.account);
  if (!row.page || id === undefined) return [];
  const published = row.published;
  return [
    {
      id,
      fee: published ? `${(published.feeBasisPoints / 100).toFixed(1)}%` : null,
      payoutHours: published?.payoutHours ?? null,
      latency: published ? `${published.latencyMs}ms` : null,
      port: row.algorithm,
      page: true,
    },
  ];
}

/**
 * The seed's marketing table per algorithm card, in port table order: a card for each row with a
 * page, and the marketing cards at their rows. A new algorithm with a page gets its card here.
 */
export const ALGORITHM_CARDS: readonly AlgorithmCard[] = PORT_TABLE.flatMap((row) => [
  ...(MARKETING[row.algorithm] ?? []),
  ...pageCard(row),
]);

/**
 * The cards in the order a visitor should meet them: the live ones first (their port accepts
 * shares, from /api/pool/ports), then the rest in table order. Until the ports answer, table order.
 */
export function cardsLiveFirst(isLive: (port: string | null) => boolean | undefined): AlgorithmCard[] {
  const rank = (card: AlgorithmCard): number => (isLive(card.port) === true ? 0 : 1);
  return [...ALGORITHM_CARDS].sort((a, b) => rank(a) - rank(b));
}

/** Where the home search goes: /miners?search=<encoded trimmed text>, or nowhere when blank. */
export function searchTarget(text: string): string | null {
  const trimmed = text.trim();
  return trimmed ? `/miners?search=${encodeURIComponent(trimmed)}` : null;
}

function HomeSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const target = searchTarget(text);
    if (target) void navigate(target);
  };
  return (
    <form role="search" className="home-search" onSubmit={submit}>
      <label htmlFor="home-search" className="visually-hidden">
        {t('home.searchLabel')}
      </label>
      <input
        id="home-search"
        type="search"
        dir="auto"
        className="field__control"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={t('home.searchPlaceholder')}
      />
      <button type="submit" className="btn btn--primary">
        <Icon name="search" />
        {t('home.searchButton')}
      </button>
    </form>
  );
}

/** One fact of a card (fee, latency): a left-to-right figure, or a dash when the pool has none yet. */
function CardFact({ label, value }: { label: string; value: string | null }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value === null ? '—' : <Ltr mono={false}>{value}</Ltr>}</dd>
    </div>
  );
}

function AlgorithmCards() {
  const { t } = useTranslation();
  const hoursText = (hours: number | null): string =>
    hours === null ? '—' : t('units.hours', { count: hours });
  const isLive = usePortLiveness();
  const ports = usePoolPorts();
  // A live card shows the port the pool runs and links to its /mining page (URL, username, password).
  const livePort = (algorithm: string | null): number | undefined =>
    ports.data?.ports.find((port) => port.algorithm === algorithm && port.live && port.protocol !== 'v2')
      ?.port;
  // A live algorithm is paid by the pool's own runs: its interval, not the seed's published one
  // (the seed published 12 h for Kaspa; the pool pays every coin on accounting.payoutIntervalHours).
  const stats = usePoolStats();
  const liveStat = (card: AlgorithmCard) =>
    stats.data?.algorithms.find((a) => a.algorithm === card.id && a.live);
  const payoutHours = (card: AlgorithmCard): number | null =>
    liveStat(card)?.payoutInterval ?? card.payoutHours;
  const fee = (card: AlgorithmCard): string | null => {
    const live = liveStat(card)?.fee;
    return live === undefined ? card.fee : `${live.toFixed(1)}%`;
  };
  return (
    <section className="container home-section" aria-labelledby="algorithms-title">
      <h2 id="algorithms-title">{t('home.algorithmsTitle')}</h2>
      <p className="page__lead">{t('home.algorithmsLead')}</p>
      <ul className="grid home-cards">
        {cardsLiveFirst(isLive).map((card) => (
          <li key={card.id} className="card algo-card">
            <h3>{t(`home.algorithms.${card.id}`)}</h3>
            <dl className="algo-card__facts">
              <CardFact label={t('home.fee')} value={fee(card)} />
              <div>
                <dt>{t('home.payout')}</dt>
                <dd>{hoursText(payoutHours(card))}</dd>
              </div>
              {livePort(card.port) !== undefined ? (
                <div>
                  <dt>{t('algorithm.port')}</dt>
                  <dd>
                    <Ltr>{livePort(card.port)}</Ltr>
                  </dd>
                </div>
              ) : null}
              {card.latency === null ? null : <CardFact label={t('home.latency')} value={card.latency} />}
            </dl>
            {isLive(card.port) === true ? (
              <p className="row">
                <Link to="/register" className="btn btn--primary btn--sm">
                  {t('home.startMining')}
                </Link>
                {card.page ? (
                  <Link to={`/mining/${card.id}`} className="btn btn--ghost btn--sm">
                    {t('algorithm.facts')}
                  </Link>
                ) : null}
              </p>
            ) : isLive(card.port) === false ? (
              <p className="algo-card__status">
                <span className="badge badge--muted">{t('home.notLive')}</span>{' '}
                <span className="muted">{t('home.notLiveHint')}</span>
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      <p className="muted home-note">{t('home.latencyNote')}</p>
    </section>
  );
}

export default function HomePage() {
  const { t } = useTranslation();
  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <ParticleField />
        <div className="container hero__content">
          <h1 id="hero-title">{t('home.heroTitle')}</h1>
          <p className="hero__lead">{t('home.heroLead')}</p>
          <div className="row hero__actions">
            <Link to="/register" className="btn btn--primary btn--lg">
              {t('home.startMining')}
            </Link>
            <Link to="/about" className="btn btn--ghost btn--lg">
              {t('common.learnMore')}
            </Link>
          </div>
          <HomeSearch />
        </div>
      </section>
      <div className="container">
        <QuoteBanner />
      </div>
      <section className="container home-section" aria-labelledby="features-title">
        <h2 id="features-title">{t('home.featuresTitle')}</h2>
        <ul className="grid home-cards">
          {FEATURES.map((feature) => (
            <li key={feature.id} className="card feature-card">
              <span className="feature-card__icon">
                <Icon name={feature.icon} size={26} />
              </span>
              <h3>{t(`home.features.${feature.id}.title`)}</h3>
              <p className="muted">{t(`home.features.${feature.id}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>
      <AlgorithmCards />
      <section className="container home-section cta" aria-labelledby="cta-title">
        <h2 id="cta-title">{t('home.ctaTitle')}</h2>
        <p className="page__lead">{t('home.ctaLead')}</p>
        <Link to="/register" className="btn btn--primary btn--lg">
          {t('home.ctaButton')}
        </Link>
      </section>
    </div>
  );
}
