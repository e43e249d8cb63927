import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { SignInPrompt } from '../components/SignInPrompt';
import { Spinner } from '../components/Spinner';
import { useAuth } from '../lib/auth';
import { useIsOperator } from '../lib/queries';

/** Protected routes: visitors go to /login (the attempted path is kept in router state). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isSignedIn } = useAuth();
  const location = useLocation();
  if (!isSignedIn) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return children;
}

/** Visitor-only routes (/login, /register): signed-in users go to /dashboard. */
export function VisitorOnly({ children }: { children: ReactNode }) {
  const { isSignedIn } = useAuth();
  if (isSignedIn) return <Navigate to="/dashboard" replace />;
  return children;
}

/**
 * Linked account pages outside the seed's protected group (/payouts): a visitor gets a real page
 * asking them to sign in, rather than a redirect.
 */
export function SignedInOrPrompt({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { isSignedIn } = useAuth();
  if (isSignedIn) return children;
  return (
    <div className="container page">
      <h1>{title}</h1>
      <SignInPrompt message={t('common.signInToSee')} />
    </div>
  );
}

/**
 * The operator console: everyone but an operator gets the 404 page, as for a page that does not
 * exist (the API answers them 404 too).
 */
export function OperatorOnly({ children }: { children: ReactNode }) {
  const operator = useIsOperator();
  if (operator === undefined)
    return (
      <div className="center-block">
        <Spinner size="lg" />
      </div>
    );
  if (!operator) return <Navigate to="/404" replace />;
  return children;
}
