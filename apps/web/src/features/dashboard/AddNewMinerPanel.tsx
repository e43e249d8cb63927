// Add New Miner: ASIC / GPU / CPU cards open the worker setup guide with the type's default algorithm.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components';
import { MINER_TYPES, type MinerType } from '../api-types';
import { DEFAULT_ALGORITHM_BY_TYPE } from '../setup-guide/algorithms';
import { SetupGuide } from '../setup-guide/SetupGuide';

export function AddNewMinerPanel() {
  const { t } = useTranslation();
  const [device, setDevice] = useState<MinerType | null>(null);
  return (
    <section className="card stack" aria-labelledby="add-new-miner-title">
      <h2 id="add-new-miner-title" className="section-title">
        {t('dashboard.addNewMiner')}
      </h2>
      <p className="muted">{t('dashboard.addNewMinerHint')}</p>
      <div className="device-cards">
        {MINER_TYPES.map((type) => (
          <button key={type} type="button" className="device-card" onClick={() => setDevice(type)}>
            <span className="device-card__title">{t(`dashboard.devices.${type}.title`)}</span>
            <span className="device-card__body">{t(`dashboard.devices.${type}.body`)}</span>
          </button>
        ))}
      </div>
      <Modal open={device !== null} onClose={() => setDevice(null)} title={t('setupGuide.title')}>
        {device ? (
          <SetupGuide key={device} type={device} algorithm={DEFAULT_ALGORITHM_BY_TYPE[device]} />
        ) : null}
      </Modal>
    </section>
  );
}
