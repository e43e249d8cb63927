import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { SignInPrompt } from '../components/SignInPrompt';
import { useAuth } from '../lib/auth';

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
