import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const raw: unknown = t('forgot.steps', { returnObjects: true });
  const steps = Array.isArray(raw) ? (raw as string[]) : [];
  return (
    <article className="container page prose">
      <h1>{t('forgot.title')}</h1>
      <p className="page__lead">{t('forgot.lead')}</p>
      <h2>{t('forgot.stepsTitle')}</h2>
      <ol>
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <p>{t('forgot.note')}</p>
      <p className="row">
        <Link to="/support" className="btn btn--primary">
          {t('forgot.contact')}
        </Link>
        <Link to="/login" className="btn btn--ghost">
          {t('forgot.backToLogin')}
        </Link>
      </p>
    </article>
  );
}
