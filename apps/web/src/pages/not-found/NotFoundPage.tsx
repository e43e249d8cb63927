import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="container page not-found">
      <p className="not-found__code" aria-hidden="true">
        {t('notFound.code')}
      </p>
      <h1>{t('notFound.title')}</h1>
      <p className="page__lead">{t('notFound.message')}</p>
      <Link to="/" className="btn btn--primary">
        {t('common.backToHome')}
      </Link>
    </div>
  );
}
