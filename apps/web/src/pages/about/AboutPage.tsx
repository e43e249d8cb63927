import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TextPage, useSections } from '../../components/TextPage';

export default function AboutPage() {
  const { t } = useTranslation();
  return (
    <TextPage title={t('about.title')} lead={t('about.lead')} sections={useSections('about.sections')}>
      <p className="row">
        <Link to="/register" className="btn btn--primary">
          {t('home.startMining')}
        </Link>
        <Link to="/stats" className="btn btn--ghost">
          {t('footer.links.stats')}
        </Link>
      </p>
    </TextPage>
  );
}
