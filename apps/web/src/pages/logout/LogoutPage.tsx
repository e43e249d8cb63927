import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Spinner } from '../../components/Spinner';
import { apiFetch } from '../../lib/api';
import { getAuthSnapshot, signOut } from '../../lib/auth';

/** Ends the server session, removes token and user, returns to the home page. */
export async function logout(): Promise<void> {
  if (getAuthSnapshot().token) {
    try {
      await apiFetch<undefined>('/api/auth/logout', { method: 'POST' });
    } catch {
      // The session is dropped on this device either way; the server expires it on its own.
    }
  }
  signOut();
}

export default function LogoutPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    let active = true;
    void logout().then(() => {
      queryClient.clear();
      if (active) void navigate('/', { replace: true });
    });
    return () => {
      active = false;
    };
  }, [navigate, queryClient]);
  return (
    <div className="center-block">
      <Spinner size="lg" label={t('logout.title')} showLabel />
    </div>
  );
}
