// Add Miner: Configuration (name, algorithm, worker, password, pool) and Setup Guide tabs.
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Ltr, Modal, Select, TabPanel, Tabs, TextField } from '../../components';
import { webFamilyOfAlgorithm } from '../../coins/registry';
import { useAuth } from '../../lib/auth';
import { errorMessage } from '../../lib/errors';
import { usePoolPorts } from '../../lib/queries';
import { MINER_TYPES, type Algorithm, type MinerType } from '../api-types';
import { PLAIN_PASSWORD } from '../setup-guide/algorithms';
import { useCreateMiner } from './api';
import {
  ADD_ALGORITHMS,
  isolateLtr,
  poolUrl,
  portForAlgorithm,
  validateMinerForm,
  type MinerFormErrors,
} from './minerForm';
import type { NoticeApi } from './notice';

type AddTab = 'configuration' | 'guide';

interface AddValues {
  type: MinerType;
  name: string;
  algorithm: Algorithm;
  worker: string;
  password: string;
}

function initialValues(type: MinerType): AddValues {
  return { type, name: '', algorithm: ADD_ALGORITHMS[type][0], worker: 'worker1', password: PLAIN_PASSWORD };
}

/** A live worker being declared: the form starts from its name and its port's algorithm. */
export interface AddMinerPrefill {
  name: string;
  worker: string;
  algorithm: Algorithm;
}

export interface AddMinerModalProps {
  /** Device type to start with; null keeps the modal closed. */
  type: MinerType | null;
  onClose: () => void;
  notify: NoticeApi['show'];
  prefill?: AddMinerPrefill | undefined;
}

export function AddMinerModal({ type, onClose, notify, prefill }: AddMinerModalProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const ports = usePoolPorts();
  const create = useCreateMiner();
  const [tab, setTab] = useState<AddTab>('configuration');
  const [values, setValues] = useState<AddValues>(initialValues(type ?? 'asic'));
  const [errors, setErrors] = useState<MinerFormErrors>({});

  useEffect(() => {
    if (type) setValues({ ...initialValues(type), ...prefill });
    setTab('configuration');
    setErrors({});
  }, [type, prefill]);
  // A declared worker's algorithm is its port's, offered even where the seed's list for the type lacks it.
  const algorithms = ADD_ALGORITHMS[values.type].includes(values.algorithm)
    ? ADD_ALGORITHMS[values.type]
    : [values.algorithm, ...ADD_ALGORITHMS[values.type]];

  const port = portForAlgorithm(ports.data, values.algorithm);
  const live = ports.data?.ports.find((p) => p.port === port)?.live ?? false;
  const url = ports.data && port !== null ? poolUrl(ports.data.host, port) : null;
  const username = `${user?.username ?? 'username'}.${values.worker.trim() || 'worker1'}`;
  // Said plainly what a CPU hashes on the chosen algorithm, where its family says so (the guide's text).
  const cpuNote = values.type === 'cpu' ? webFamilyOfAlgorithm(values.algorithm)?.cpuNoteKey : undefined;
  const cpuLine = cpuNote ? <p className="muted">{t(cpuNote)}</p> : null;

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const found = validateMinerForm({ name: values.name, workerName: values.worker });
    setErrors(found);
    if (found.name || found.workerName) return;
    create.mutate(
      {
        name: values.name.trim(),
        type: values.type,
        algorithm: values.algorithm,
        workerName: values.worker.trim(),
      },
      {
        onSuccess: () => {
          notify(t('miners.add.created'), 'success');
          setTab('guide');
        },
        onError: (error) =>
          notify(t('miners.add.createFailed', { message: errorMessage(error, t) }), 'error'),
      },
    );
  };

  const setType = (next: MinerType): void =>
    setValues((v) => ({
      ...v,
      type: next,
      algorithm: ADD_ALGORITHMS[next].includes(v.algorithm)
        ? v.algorithm
        : (ADD_ALGORITHMS[next][0] ?? v.algorithm),
    }));

  const footer =
    tab === 'configuration' ? (
      <>
        <button type="button" className="btn btn--ghost" onClick={onClose}>
          {t('miners.cancel')}
        </button>
        <button type="submit" form="add-miner-form" className="btn btn--primary" disabled={create.isPending}>
          {create.isPending ? t('miners.saving') : t('miners.add.save')}
        </button>
      </>
    ) : (
      <button type="button" className="btn btn--primary" onClick={onClose}>
        {t('miners.add.gotIt')}
      </button>
    );

  const title = t(`miners.add.title_${values.type}`);
  return (
    <Modal open={type !== null} onClose={onClose} title={title} footer={footer}>
      <Tabs
        idBase="add-miner"
        label={title}
        value={tab}
        onChange={setTab}
        tabs={[
          { id: 'configuration', label: t('miners.add.tabConfiguration') },
          { id: 'guide', label: t('miners.add.tabGuide') },
        ]}
      />
      <TabPanel idBase="add-miner" value={tab} className="add-miner__panel">
        {tab === 'configuration' ? (
          <form id="add-miner-form" className="stack" onSubmit={submit} noValidate>
            <Select
              label={t('miners.add.type')}
              value={values.type}
              onChange={setType}
              options={MINER_TYPES.map((v) => ({ value: v, label: t(`miners.types.${v}`) }))}
            />
            <TextField
              label={t('miners.add.name')}
              placeholder={t('miners.add.namePlaceholder')}
              value={values.name}
              onChange={(name) => setValues((v) => ({ ...v, name }))}
              error={errors.name ? t('miners.nameRequired') : undefined}
              required
              maxLength={64}
            />
            <Select
              label={t('miners.add.algorithm')}
              value={values.algorithm}
              onChange={(algorithm) => setValues((v) => ({ ...v, algorithm }))}
              options={algorithms.map((a) => ({
                value: a,
                label: t(`miners.algorithms.${a}`),
              }))}
            />
            {cpuLine}
            <TextField
              label={t('miners.add.worker')}
              value={values.worker}
              onChange={(worker) => setValues((v) => ({ ...v, worker }))}
              ltr
              hint={t('miners.add.workerHint', { username: isolateLtr(username) })}
              error={
                errors.workerName === 'required'
                  ? t('miners.add.workerRequired')
                  : errors.workerName
                    ? t('miners.add.workerInvalid')
                    : undefined
              }
            />
            <TextField
              label={t('miners.add.password')}
              value={values.password}
              onChange={(password) => setValues((v) => ({ ...v, password }))}
              ltr
              hint={t('miners.add.passwordHint')}
            />
            <div className="field">
              <span className="field__label">{t('miners.add.pool')}</span>
              <p className="pool-address">
                {url ? (
                  <Ltr>{url}</Ltr>
                ) : ports.isPending ? (
                  t('miners.add.poolLoading')
                ) : (
                  t('miners.add.poolUnavailable')
                )}
                {url && !live ? (
                  <span className="badge badge--warning">{t('miners.add.notLive')}</span>
                ) : null}
              </p>
            </div>
          </form>
        ) : (
          <div className="stack">
            <p>{t('miners.add.guideIntro')}</p>
            {cpuLine}
            <ol className="guide-list">
              <li>{t('miners.add.guideStep1')}</li>
              <li>{t('miners.add.guideStep2', { url: isolateLtr(url ?? '—') })}</li>
              <li>{t('miners.add.guideStep3', { username: isolateLtr(username) })}</li>
              <li>{t('miners.add.guideStep4')}</li>
            </ol>
          </div>
        )}
      </TabPanel>
    </Modal>
  );
}
