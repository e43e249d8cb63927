// Miner Search: wallet address or address.worker (signed in: also own workers by name) -> GET /api/search?q= -> addresses and their miners.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState, ErrorBanner, Spinner, TextField } from '../../components';
import { useAuth } from '../../lib/auth';
import { useMinerSearch, validateSearchQuery } from './api';
import { SearchResults } from './SearchResults';
import './search.css';

export interface MinerSearchPanelProps {
  /** Query to run at once (e.g. /miners?search=...). */
  initialQuery?: string;
  /** Called with each submitted query (the /miners page keeps it in the URL). */
  onSearch?: (query: string) => void;
  autoFocus?: boolean;
}

export function MinerSearchPanel({ initialQuery = '', onSearch, autoFocus }: MinerSearchPanelProps) {
  const { t } = useTranslation();
  const { isSignedIn } = useAuth();
  const [text, setText] = useState(initialQuery);
  const [query, setQuery] = useState(initialQuery.trim());
  const [blank, setBlank] = useState(false);
  const search = useMinerSearch(query);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (validateSearchQuery(text) === 'blank') {
      setBlank(true);
      return;
    }
    setBlank(false);
    const next = text.trim();
    setQuery(next);
    onSearch?.(next);
    if (next === query) void search.refetch();
  };

  const results = search.data?.results.filter((r) => r.miners.length > 0) ?? [];
  return (
    <section className="miner-search" aria-label={t('search.title')}>
      <form className="miner-search__form" onSubmit={submit} role="search" noValidate>
        <TextField
          label={t('search.label')}
          placeholder={t('search.placeholder')}
          value={text}
          onChange={setText}
          ltr
          autoFocus={autoFocus}
          error={blank ? t('search.blank') : undefined}
          hint={isSignedIn ? t('search.ownHint') : undefined}
          autoComplete="off"
          spellCheck={false}
        />
        <button type="submit" className="btn btn--primary" disabled={search.isFetching}>
          {search.isFetching ? t('search.searching') : t('search.button')}
        </button>
      </form>
      <div aria-live="polite">
        {search.isFetching && !search.data ? <Spinner label={t('search.searching')} /> : null}
        {search.isError ? (
          <ErrorBanner message={t('search.error')} onRetry={() => void search.refetch()} />
        ) : null}
        {search.isSuccess && results.length === 0 ? (
          <EmptyState
            title={t('search.none', { query })}
            message={isSignedIn ? undefined : t('search.signedOutHint')}
            action={
              isSignedIn ? undefined : (
                <Link to="/login" className="btn btn--ghost btn--sm">
                  {t('search.signIn')}
                </Link>
              )
            }
          />
        ) : null}
        {results.length > 0 ? <SearchResults query={query} results={results} /> : null}
      </div>
    </section>
  );
}
