import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { OperatorContact } from '../../features/support/OperatorContact';

export default function SupportPage() {
  const { t } = useTranslation();
  const raw: unknown = t('support.options', { returnObjects: true });
  const options = Array.isArray(raw) ? (raw as string[]) : [];
  return (
    <article className="container page prose">
      <h1>{t('support.title')}</h1>
      <p className="page__lead">{t('support.comingSoon')}</p>
      <p>{t('support.lead')}</p>
      <ul>
        {options.map((option) => (
          <li key={option}>{option}</li>
        ))}
      </ul>
      <OperatorContact className="banner banner--info" />
      <p className="row">
        <Link to="/help" className="btn btn--ghost">
          {t('support.helpLink')}
        </Link>
        <Link to="/faq" className="btn btn--ghost">
          {t('support.faqLink')}
        </Link>
      </p>
    </article>
  );
}
