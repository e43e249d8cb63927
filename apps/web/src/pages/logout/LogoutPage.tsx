import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Spinner } from '../../components/Spinner';
import { logout } from '../../features/session/logout';

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
