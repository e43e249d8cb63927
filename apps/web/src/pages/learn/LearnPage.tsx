import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TextPage, useSections } from '../../components/TextPage';

const GUIDES = [
  { to: '/mining/sha256', key: 'footer.links.sha256' },
  { to: '/mining/scrypt', key: 'footer.links.scrypt' },
  { to: '/mining/kadena', key: 'footer.links.kadena' },
  { to: '/mining/kaspa', key: 'footer.links.kaspa' },
] as const;

export default function LearnPage() {
  const { t } = useTranslation();
  return (
    <TextPage title={t('learn.title')} lead={t('learn.lead')} sections={useSections('learn.sections')}>
      <h2>{t('learn.algorithmLinks')}</h2>
      <ul>
        {GUIDES.map((guide) => (
          <li key={guide.to}>
            <Link to={guide.to}>{t(guide.key)}</Link>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/mining/calculator" className="btn btn--primary">
          {t('learn.calculatorLink')}
        </Link>
      </p>
    </TextPage>
  );
}
