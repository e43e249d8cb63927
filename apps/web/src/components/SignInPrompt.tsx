import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** For pages that show account data: what a visitor sees instead (with Login and Register). */
export function SignInPrompt({ message }: { message?: string }) {
  const { t } = useTranslation();
  return (
    <div className="card stack">
      <p>{message ?? t('common.signInToSee')}</p>
      <p className="row">
        <Link to="/login" className="btn btn--primary">
          {t('common.login')}
        </Link>
        <Link to="/register" className="btn btn--ghost">
          {t('common.register')}
        </Link>
      </p>
    </div>
  );
}
