// Edit Miner: Miner Name (required), Algorithm from the edit list, Miner Type -> PUT /api/miners/:id.
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal, Select, TextField } from '../../components';
import { errorMessage } from '../../lib/errors';
import { DEFAULT_ALGORITHM, MINER_TYPES, type Miner } from '../api-types';
import { useUpdateMiner } from './api';
import { EDIT_ALGORITHMS, validateMinerForm, type MinerFormValues } from './minerForm';
import type { NoticeApi } from './notice';

export interface EditMinerModalProps {
  miner: Miner | null;
  onClose: () => void;
  notify: NoticeApi['show'];
}

export function EditMinerModal({ miner, onClose, notify }: EditMinerModalProps) {
  const { t } = useTranslation();
  const update = useUpdateMiner();
  const [values, setValues] = useState<MinerFormValues>({
    name: '',
    algorithm: DEFAULT_ALGORITHM,
    type: 'asic',
  });
  const [nameError, setNameError] = useState<string | undefined>();

  useEffect(() => {
    if (miner) setValues({ name: miner.name, algorithm: miner.algorithm, type: miner.type });
    setNameError(undefined);
  }, [miner]);

  const algorithms = EDIT_ALGORITHMS.includes(values.algorithm)
    ? EDIT_ALGORITHMS
    : [values.algorithm, ...EDIT_ALGORITHMS];
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (!miner) return;
    const errors = validateMinerForm({ name: values.name });
    setNameError(errors.name ? t('miners.nameRequired') : undefined);
    if (errors.name) return;
    update.mutate(
      { id: miner.id, name: values.name.trim(), algorithm: values.algorithm, type: values.type },
      {
        onSuccess: () => {
          notify(t('miners.updated'), 'success');
          onClose();
        },
        onError: (error) => notify(t('miners.updateFailed', { message: errorMessage(error, t) }), 'error'),
      },
    );
  };

  return (
    <Modal
      open={miner !== null}
      onClose={onClose}
      title={t('miners.editTitle')}
      size="sm"
      footer={
        <>
          <button type="button" className="btn btn--ghost" onClick={onClose}>
            {t('miners.cancel')}
          </button>
          <button
            type="submit"
            form="edit-miner-form"
            className="btn btn--primary"
            disabled={update.isPending}
          >
            {update.isPending ? t('miners.saving') : t('miners.saveChanges')}
          </button>
        </>
      }
    >
      <form id="edit-miner-form" className="stack" onSubmit={submit} noValidate>
        <TextField
          label={t('miners.name')}
          value={values.name}
          onChange={(name) => setValues((v) => ({ ...v, name }))}
          error={nameError}
          required
          maxLength={64}
        />
        <Select
          label={t('miners.algorithm')}
          value={values.algorithm}
          onChange={(algorithm) => setValues((v) => ({ ...v, algorithm }))}
          options={algorithms.map((a) => ({ value: a, label: t(`miners.algorithms.${a}`) }))}
        />
        <Select
          label={t('miners.type')}
          value={values.type}
          onChange={(type) => setValues((v) => ({ ...v, type }))}
          options={MINER_TYPES.map((type) => ({ value: type, label: t(`miners.types.${type}`) }))}
        />
      </form>
    </Modal>
  );
}
