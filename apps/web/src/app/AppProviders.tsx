import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { ApiError } from '../lib/api';
import { useSettings } from '../lib/queries';
import type { Theme } from '../lib/api-types';
import { LanguageAdoption } from './LanguageAdoption';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 2,
      },
    },
  });
}

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}

/** Applies the signed-in user's theme from GET /api/settings (dark by default). */
function ThemeSync() {
  const settings = useSettings();
  const theme = settings.data?.theme;
  useEffect(() => {
    applyTheme(theme ?? 'dark');
  }, [theme]);
  return null;
}

export function AppProviders({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? createQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeSync />
      <LanguageAdoption />
      {children}
    </QueryClientProvider>
  );
}
