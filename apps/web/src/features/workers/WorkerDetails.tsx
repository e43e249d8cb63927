import { useTranslation } from 'react-i18next';
import { Ltr, Modal } from '../../components';
import { formatDateTime, formatNumber } from '../../lib/format';
import type { Worker } from '../api-types';
import { changeTone } from '../dashboard/api';
import { rejectRate } from './workerForm';

export function WorkerDetails({ worker, onClose }: { worker: Worker | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={worker !== null} onClose={onClose} title={worker?.name ?? ''} size="sm">
      {worker ? (
        <dl className="pool-info">
          <div>
            <dt>{t('workers.details.fullName')}</dt>
            <dd>
              <Ltr>{worker.fullName}</Ltr>
            </dd>
          </div>
          <div>
            <dt>{t('workers.details.shares')}</dt>
            <dd className="tabular">{formatNumber(worker.shares)}</dd>
          </div>
          <div>
            <dt>{t('workers.details.rejects')}</dt>
            <dd className="tabular">{formatNumber(worker.rejects)}</dd>
          </div>
          <div>
            <dt>{t('workers.details.rejectRate')}</dt>
            <dd>
              <Ltr mono={false} className="tabular">
                {formatNumber(rejectRate(worker.shares, worker.rejects))}%
              </Ltr>
            </dd>
          </div>
          <div>
            <dt>{t('workers.details.change')}</dt>
            <dd>
              <Ltr mono={false} className={`tabular change change--${changeTone(worker.change)}`}>
                {worker.change}
              </Ltr>
            </dd>
          </div>
          <div>
            <dt>{t('workers.details.lastSeen')}</dt>
            <dd>{worker.lastSeen ? formatDateTime(worker.lastSeen) : t('workers.never')}</dd>
          </div>
        </dl>
      ) : null}
    </Modal>
  );
}
