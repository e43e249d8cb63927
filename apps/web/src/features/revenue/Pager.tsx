// Real pagination from the server's total.
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/format';
import { pageCount, visiblePages } from './format';

export interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}

export function Pager({ page, pageSize, total, onPage }: PagerProps) {
  const { t } = useTranslation();
  const pages = pageCount(total, pageSize);
  if (total === 0) return null;
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(page * pageSize, total);
  return (
    <nav className="rev-pager" aria-label={t('revenue.pagination')}>
      <span className="muted tabular">
        {t('revenue.showing', { from: formatNumber(from), to: formatNumber(to), total: formatNumber(total) })}
      </span>
      <div className="rev-pager__buttons">
        <button
          type="button"
          className="btn btn--ghost btn--sm"
          onClick={() => onPage(page - 1)}
          disabled={page <= 1}
          aria-label={t('revenue.previous')}
        >
          <span aria-hidden="true" className="mirror-rtl">
            ‹
          </span>
        </button>
        {visiblePages(page, pages).map((p) => (
          <button
            key={p}
            type="button"
            className="btn btn--ghost btn--sm tabular"
            aria-current={p === page ? 'page' : undefined}
            aria-label={t('revenue.page', { page: p })}
            onClick={() => onPage(p)}
          >
            {formatNumber(p)}
          </button>
        ))}
        <button
          type="button"
          className="btn btn--ghost btn--sm"
          onClick={() => onPage(page + 1)}
          disabled={page >= pages}
          aria-label={t('revenue.next')}
        >
          <span aria-hidden="true" className="mirror-rtl">
            ›
          </span>
        </button>
      </div>
    </nav>
  );
}
