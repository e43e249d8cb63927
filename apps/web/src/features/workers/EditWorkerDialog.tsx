import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal, Select, TextField } from '../../components';
import { errorMessage } from '../../lib/errors';
import {
  ALGORITHMS,
  DEFAULT_ALGORITHM,
  MINER_TYPES,
  type Algorithm,
  type MinerType,
  type Worker,
} from '../api-types';
import type { NoticeApi } from '../miners/notice';
import { useUpdateWorker } from './api';
import { validateWorkerEdit } from './workerForm';

export function EditWorkerDialog({
  worker,
  onClose,
  notify,
}: {
  worker: Worker | null;
  onClose: () => void;
  notify: NoticeApi['show'];
}) {
  const { t } = useTranslation();
  const update = useUpdateWorker();
  const [name, setName] = useState('');
  // Shown, not edited: a worker's algorithm is its port's.
  const [algorithm, setAlgorithm] = useState<Algorithm>(DEFAULT_ALGORITHM);
  const [type, setType] = useState<MinerType>('asic');
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    if (!worker) return;
    setName(worker.name);
    setAlgorithm(worker.algorithm);
    setType(worker.type);
    setError(undefined);
  }, [worker]);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    // A worker with no id (connected, no accepted share yet) is not stored: nothing to rename.
    if (!worker || worker.id === null) return;
    const problem = validateWorkerEdit(name);
    setError(
      problem === 'required'
        ? t('workers.nameRequired')
        : problem === 'invalid'
          ? t('workers.nameInvalid')
          : undefined,
    );
    if (problem) return;
    update.mutate(
      { id: worker.id, name: name.trim(), type },
      {
        onSuccess: () => {
          notify(t('workers.updated'), 'success');
          onClose();
        },
        onError: (e) => notify(t('workers.updateFailed', { message: errorMessage(e, t) }), 'error'),
      },
    );
  };

  return (
    <Modal
      open={worker !== null}
      onClose={onClose}
      title={t('workers.editTitle')}
      size="sm"
      footer={
        <>
          <button type="button" className="btn btn--ghost" onClick={onClose}>
            {t('workers.cancel')}
          </button>
          <button
            type="submit"
            form="edit-worker-form"
            className="btn btn--primary"
            disabled={update.isPending}
          >
            {t('workers.saveChanges')}
          </button>
        </>
      }
    >
      <form id="edit-worker-form" className="stack" onSubmit={submit} noValidate>
        <TextField
          label={t('workers.name')}
          value={name}
          onChange={setName}
          ltr
          error={error}
          required
          maxLength={64}
        />
        <Select
          label={t('workers.algorithm')}
          value={algorithm}
          onChange={setAlgorithm}
          options={ALGORITHMS.map((a) => ({ value: a, label: t(`miners.algorithms.${a}`) }))}
          disabled
          hint={t('workers.algorithmFromPort')}
        />
        <Select
          label={t('workers.type')}
          value={type}
          onChange={setType}
          options={MINER_TYPES.map((v) => ({ value: v, label: t(`miners.types.${v}`) }))}
        />
      </form>
    </Modal>
  );
}
