import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState';

export default function BlogPage() {
  const { t } = useTranslation();
  return (
    <div className="container page">
      <header className="page__header">
        <h1>{t('blog.title')}</h1>
        <p className="page__lead">{t('blog.lead')}</p>
      </header>
      <EmptyState
        title={t('blog.empty')}
        message={t('blog.emptyText')}
        action={
          <Link to="/stats" className="btn btn--ghost">
            {t('footer.links.stats')}
          </Link>
        }
      />
    </div>
  );
}
