// Search, Filter (coin, status), Help (PPS+ and 03:00 Riyadh settlement) and Export Data.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal, Select, TextField } from '../../components';
import { COINS, type Coin, type PayoutStatus } from '../api-types';
import type { NoticeApi } from '../miners/notice';
import { csvFileName, fetchRevenueCsv, saveBlob, type RevenueFilters, type RevenueKind } from './api';

const STATUSES: readonly PayoutStatus[] = ['completed', 'pending', 'failed'];

export interface RevenueToolbarProps {
  kind: RevenueKind;
  search: string;
  onSearch: (search: string) => void;
  filters: RevenueFilters;
  onFilters: (filters: RevenueFilters) => void;
  notify: NoticeApi['show'];
}

function FilterDialog({
  open,
  kind,
  filters,
  onApply,
  onClose,
}: {
  open: boolean;
  kind: RevenueKind;
  filters: RevenueFilters;
  onApply: (f: RevenueFilters) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [coin, setCoin] = useState<Coin | ''>(filters.coin);
  const [status, setStatus] = useState<PayoutStatus | ''>(filters.status);
  useEffect(() => {
    setCoin(filters.coin);
    setStatus(filters.status);
  }, [filters, open]);
  const footer = (
    <>
      <button
        type="button"
        className="btn btn--ghost"
        onClick={() => {
          onApply({ ...filters, coin: '', status: '' });
          onClose();
        }}
      >
        {t('revenue.clear')}
      </button>
      <button
        type="button"
        className="btn btn--primary"
        onClick={() => {
          onApply({ ...filters, coin, status });
          onClose();
        }}
      >
        {t('revenue.apply')}
      </button>
    </>
  );
  return (
    <Modal open={open} onClose={onClose} title={t('revenue.filterTitle')} size="sm" footer={footer}>
      <div className="stack">
        <Select<Coin | ''>
          label={t('revenue.coin')}
          value={coin}
          onChange={setCoin}
          options={[{ value: '', label: t('revenue.any') }, ...COINS.map((c) => ({ value: c, label: c }))]}
        />
        {kind === 'payouts' ? (
          <Select<PayoutStatus | ''>
            label={t('revenue.status')}
            value={status}
            onChange={setStatus}
            options={[
              { value: '', label: t('revenue.any') },
              ...STATUSES.map((s) => ({ value: s, label: t(`payouts.status.${s}`) })),
            ]}
          />
        ) : null}
      </div>
    </Modal>
  );
}

export function RevenueToolbar({ kind, search, onSearch, filters, onFilters, notify }: RevenueToolbarProps) {
  const { t } = useTranslation();
  const [filterOpen, setFilterOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [exporting, setExporting] = useState(false);
  const active = [filters.coin, kind === 'payouts' ? filters.status : ''].filter(Boolean).length;

  const exportCsv = async (): Promise<void> => {
    setExporting(true);
    try {
      saveBlob(await fetchRevenueCsv(kind, { ...filters, search }), csvFileName(kind, new Date()));
    } catch {
      notify(t('revenue.exportFailed'), 'error');
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="toolbar">
      <TextField
        label={t('revenue.searchLabel')}
        placeholder={t('revenue.searchPlaceholder')}
        value={search}
        onChange={onSearch}
        type="search"
        autoComplete="off"
      />
      <div className="screen-actions">
        <button
          type="button"
          className="btn btn--ghost"
          onClick={() => setFilterOpen(true)}
          aria-haspopup="dialog"
        >
          {t('revenue.filter')}
          {active > 0 ? <span className="badge badge--warning tabular"> {active}</span> : null}
        </button>
        <button
          type="button"
          className="btn btn--ghost"
          onClick={() => setHelpOpen(true)}
          aria-haspopup="dialog"
        >
          {t('revenue.help')}
        </button>
        <button
          type="button"
          className="btn btn--primary"
          onClick={() => void exportCsv()}
          disabled={exporting}
        >
          {exporting ? t('revenue.exporting') : t('revenue.export')}
        </button>
      </div>
      <FilterDialog
        open={filterOpen}
        kind={kind}
        filters={filters}
        onApply={onFilters}
        onClose={() => setFilterOpen(false)}
      />
      <Modal open={helpOpen} onClose={() => setHelpOpen(false)} title={t('revenue.helpTitle')} size="sm">
        <div className="stack">
          <p>{t('revenue.helpPps')}</p>
          <p>{t('revenue.helpSettlement')}</p>
        </div>
      </Modal>
    </div>
  );
}
