// The guide's algorithm list: port (live or not yet), software, hardware, difficulty, notes.
import { useTranslation } from 'react-i18next';
import { Ltr, Table, type Column } from '../../components';
import type { PoolPort } from '../api-types';
import { findPort, type GuideAlgorithm } from './algorithms';

export interface AlgorithmTableProps {
  algorithms: readonly GuideAlgorithm[];
  ports: readonly PoolPort[] | undefined;
  selected: string;
  onSelect: (key: string) => void;
}

export function AlgorithmTable({ algorithms, ports, selected, onSelect }: AlgorithmTableProps) {
  const { t } = useTranslation();
  const columns: Column<GuideAlgorithm>[] = [
    {
      key: 'algorithm',
      header: t('setupGuide.columns.algorithm'),
      render: (a) => (
        <button
          type="button"
          className={`btn btn--sm ${a.key === selected ? 'btn--primary' : 'btn--ghost'}`}
          aria-pressed={a.key === selected}
          aria-label={t('setupGuide.select', { name: a.name })}
          onClick={() => onSelect(a.key)}
        >
          <Ltr mono={false}>{a.name}</Ltr>
        </button>
      ),
    },
    {
      key: 'port',
      header: t('setupGuide.columns.port'),
      render: (a) => {
        const port = ports ? findPort(ports, a) : undefined;
        return (
          <span className="guide-port">
            <Ltr>{port?.port ?? a.seedPort}</Ltr>
            {port && !port.live ? (
              <span className="badge badge--warning" title={t('setupGuide.notLiveHint')}>
                {t('setupGuide.notLive')}
              </span>
            ) : null}
            {!port && ports ? (
              <span className="badge badge--muted" title={t('setupGuide.notLiveHint')}>
                {t('setupGuide.notLive')}
              </span>
            ) : null}
          </span>
        );
      },
    },
    {
      key: 'software',
      header: t('setupGuide.columns.software'),
      render: (a) => <Ltr mono={false}>{a.software.join(', ')}</Ltr>,
    },
    {
      key: 'hardware',
      header: t('setupGuide.columns.hardware'),
      render: (a) => t(`setupGuide.algo.${a.key}.hardware` as 'setupGuide.algo.sha256.hardware'),
    },
    {
      key: 'difficulty',
      header: <span title={t('setupGuide.difficultyHint')}>{t('setupGuide.columns.difficulty')}</span>,
      render: (a) => (
        <span
          className={`badge badge--${a.difficulty === 'high' ? 'danger' : a.difficulty === 'medium' ? 'warning' : 'muted'}`}
        >
          {t(`setupGuide.difficulty.${a.difficulty}`)}
        </span>
      ),
    },
    {
      key: 'notes',
      header: t('setupGuide.columns.notes'),
      render: (a) => t(`setupGuide.algo.${a.key}.notes` as 'setupGuide.algo.sha256.notes'),
    },
  ];
  return (
    <Table
      caption={t('setupGuide.algorithmsCaption')}
      columns={columns}
      rows={algorithms}
      rowKey={(a) => a.key}
    />
  );
}
