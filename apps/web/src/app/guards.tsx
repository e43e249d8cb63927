import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
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
