import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Shown only while a route's page module is not in the build yet. */
export function MissingPage() {
  const { t } = useTranslation();
  return (
    <div className="container page">
      <h1>{t('missing.title')}</h1>
      <p className="page__lead">{t('missing.message')}</p>
      <Link to="/" className="btn btn--primary">
        {t('common.backToHome')}
      </Link>
    </div>
  );
}
