// Settings → Monitoring: read-only API tokens. A new token is shown once, in full, with a copy
// button; the list shows each token's name, first characters, dates and state, and revokes.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { TextField } from '../../components/TextField';
import { ApiError } from '../../lib/api';
import type { ApiToken, CreatedApiToken } from '../../lib/api-types';
import { errorMessage } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import {
  ConfirmFields,
  confirmBody,
  confirmProblem,
  type Confirmation,
  type FormProblem,
} from './ConfirmFields';
import { ExpirySelect, ExpiryState, isLive } from './ExpirySelect';
import { useApiTokens, useCreateApiToken, useRevoke, type ExpiryChoice } from './queries';

export function ApiTokensSection({ twoFactor }: { twoFactor: boolean }) {
  const { t } = useTranslation();
  const tokens = useApiTokens();
  const revoke = useRevoke('api-tokens');
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  return (
    <section className="monitoring__section" aria-labelledby="api-tokens-title">
      <h3 id="api-tokens-title">{t('monitoring.tokens.title')}</h3>
      <p className="muted">{t('monitoring.tokens.intro')}</p>
      {created ? (
        <div className="banner banner--success monitoring__secret" role="status">
          <p>{t('monitoring.tokens.createdOnce')}</p>
          <bdi dir="ltr" className="mono monitoring__value">
            {created.token}
          </bdi>
          <CopyButton text={created.token} ariaLabel={t('monitoring.tokens.copy')} />
        </div>
      ) : null}
      <CreateTokenForm twoFactor={twoFactor} onCreated={setCreated} />
      {tokens.isError ? <ErrorBanner message={errorMessage(tokens.error, t)} /> : null}
      {revoke.isError ? <ErrorBanner message={errorMessage(revoke.error, t)} /> : null}
      {tokens.data && tokens.data.tokens.length === 0 ? (
        <p className="muted">{t('monitoring.tokens.none')}</p>
      ) : null}
      <ul className="monitoring__list">
        {tokens.data?.tokens.map((token) => (
          <TokenRow key={token.id} token={token} onRevoke={() => revoke.mutate(token.id)} />
        ))}
      </ul>
    </section>
  );
}

function TokenRow({ token, onRevoke }: { token: ApiToken; onRevoke: () => void }) {
  const { t } = useTranslation();
  const live = isLive(token);
  return (
    <li className="monitoring__item">
      <div className="monitoring__item-main">
        <strong>{token.name}</strong>{' '}
        <bdi dir="ltr" className="mono">
          {token.prefix}…
        </bdi>
        <p className="muted monitoring__meta">
          {t('monitoring.created', { date: formatDateTime(token.createdAt) })} ·{' '}
          {token.lastUsedAt
            ? t('monitoring.tokens.lastUsed', { date: formatDateTime(token.lastUsedAt) })
            : t('monitoring.tokens.neverUsed')}{' '}
          · <ExpiryState item={token} />
        </p>
      </div>
      {live ? (
        <button
          type="button"
          className="btn btn--ghost btn--danger"
          onClick={onRevoke}
          aria-label={t('monitoring.revokeNamed', { name: token.name })}
        >
          {t('monitoring.revoke')}
        </button>
      ) : null}
    </li>
  );
}

function CreateTokenForm({
  twoFactor,
  onCreated,
}: {
  twoFactor: boolean;
  onCreated: (token: CreatedApiToken) => void;
}) {
  const { t } = useTranslation();
  const create = useCreateApiToken();
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState<ExpiryChoice>(90);
  const [confirm, setConfirm] = useState<Confirmation>({ password: '', totp: '' });
  const [problem, setProblem] = useState<FormProblem | undefined>();
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const found = !name.trim() ? 'monitoring.nameRequired' : confirmProblem(confirm, twoFactor);
    setProblem(found);
    if (found) return;
    create.mutate(
      { name: name.trim(), expiresInDays: expiry, ...confirmBody(confirm, twoFactor) },
      {
        onSuccess: (token) => {
          onCreated(token);
          setName('');
          setConfirm({ password: '', totp: '' });
        },
      },
    );
  };
  const serverFields = create.error instanceof ApiError ? create.error.fields : {};
  return (
    <form noValidate onSubmit={submit} className="settings-form monitoring__form">
      {create.isError && Object.keys(serverFields).length === 0 ? (
        <ErrorBanner message={errorMessage(create.error, t)} />
      ) : null}
      <TextField
        label={t('monitoring.tokens.name')}
        hint={t('monitoring.tokens.nameHint')}
        value={name}
        maxLength={60}
        onChange={setName}
        error={problem === 'monitoring.nameRequired' ? t(problem) : serverFields.name}
      />
      <ExpirySelect value={expiry} onChange={setExpiry} />
      <ConfirmFields
        value={confirm}
        onChange={setConfirm}
        twoFactor={twoFactor}
        problem={problem}
        serverFields={serverFields}
      />
      <button type="submit" className="btn btn--primary" disabled={create.isPending}>
        {t('monitoring.tokens.create')}
      </button>
    </form>
  );
}
