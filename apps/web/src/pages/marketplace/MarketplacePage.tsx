import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from '../../components/Icon';

const CARDS: { id: 'asic' | 'hashrate' | 'partners' | 'launch'; icon: IconName }[] = [
  { id: 'asic', icon: 'workers' },
  { id: 'hashrate', icon: 'chart' },
  { id: 'partners', icon: 'shield' },
  { id: 'launch', icon: 'bolt' },
];

export default function MarketplacePage() {
  const { t } = useTranslation();
  return (
    <div className="container page">
      <header className="page__header">
        <h1>{t('marketplace.title')}</h1>
        <p className="page__lead">{t('marketplace.lead')}</p>
      </header>
      <ul className="grid plain-list">
        {CARDS.map((card) => (
          <li key={card.id} className="card">
            <span className="feature-icon">
              <Icon name={card.icon} size={26} />
            </span>
            <h2 className="card__title">{t(`marketplace.cards.${card.id}.title`)}</h2>
            <p className="muted">{t(`marketplace.cards.${card.id}.text`)}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
