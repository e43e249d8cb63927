// Settings → Monitoring: watcher links. A link is a public read-only page (/watch/<token>) of the
// coins and pages its owner chose; the owner can copy it again from the list, and revoke it.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { TextField } from '../../components/TextField';
import { ApiError } from '../../lib/api';
import { WATCH_PAGES, type PayoutSetting, type WatchLink, type WatchPage } from '../../lib/api-types';
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
import { useCreateWatchLink, useRevoke, useWatchLinks, type ExpiryChoice } from './queries';

type PoolCoin = PayoutSetting['coin'];

/** The page a watcher opens for a link. */
export const watchUrl = (token: string): string => `${window.location.origin}/watch/${token}`;

export function WatchLinksSection({ twoFactor, coins }: { twoFactor: boolean; coins: readonly PoolCoin[] }) {
  const { t } = useTranslation();
  const links = useWatchLinks();
  const revoke = useRevoke('watch-links');
  return (
    <section className="monitoring__section" aria-labelledby="watch-links-title">
      <h3 id="watch-links-title">{t('monitoring.links.title')}</h3>
      <p className="muted">{t('monitoring.links.intro')}</p>
      <CreateLinkForm twoFactor={twoFactor} coins={coins} />
      {links.isError ? <ErrorBanner message={errorMessage(links.error, t)} /> : null}
      {revoke.isError ? <ErrorBanner message={errorMessage(revoke.error, t)} /> : null}
      {links.data && links.data.links.length === 0 ? (
        <p className="muted">{t('monitoring.links.none')}</p>
      ) : null}
      <ul className="monitoring__list">
        {links.data?.links.map((link) => (
          <LinkRow key={link.id} link={link} onRevoke={() => revoke.mutate(link.id)} />
        ))}
      </ul>
    </section>
  );
}

function LinkRow({ link, onRevoke }: { link: WatchLink; onRevoke: () => void }) {
  const { t } = useTranslation();
  const live = isLive(link);
  const url = watchUrl(link.token);
  const shows = [
    ...link.coins.map((coin) => coin as string),
    ...link.pages.map((page) => t(`monitoring.pages.${page}`)),
  ].join(' · ');
  return (
    <li className="monitoring__item">
      <div className="monitoring__item-main">
        <strong>{link.label}</strong> <span className="muted">{shows}</span>
        {live ? (
          <p>
            <bdi dir="ltr" className="mono monitoring__value">
              {url}
            </bdi>
          </p>
        ) : null}
        <p className="muted monitoring__meta">
          {t('monitoring.created', { date: formatDateTime(link.createdAt) })} ·{' '}
          {link.lastViewedAt
            ? t('monitoring.links.lastViewed', { date: formatDateTime(link.lastViewedAt) })
            : t('monitoring.links.neverViewed')}{' '}
          · <ExpiryState item={link} />
        </p>
      </div>
      {live ? (
        <div className="row">
          <CopyButton text={url} ariaLabel={t('monitoring.links.copy', { name: link.label })} />
          <button
            type="button"
            className="btn btn--ghost btn--danger"
            onClick={onRevoke}
            aria-label={t('monitoring.revokeNamed', { name: link.label })}
          >
            {t('monitoring.revoke')}
          </button>
        </div>
      ) : null}
    </li>
  );
}

function toggle<T>(list: readonly T[], value: T, on: boolean): T[] {
  return on ? [...list.filter((v) => v !== value), value] : list.filter((v) => v !== value);
}

function CreateLinkForm({ twoFactor, coins }: { twoFactor: boolean; coins: readonly PoolCoin[] }) {
  const { t } = useTranslation();
  const create = useCreateWatchLink();
  const [label, setLabel] = useState('');
  const [chosenCoins, setCoins] = useState<PoolCoin[]>([...coins]);
  const [pages, setPages] = useState<WatchPage[]>([...WATCH_PAGES]);
  const [expiry, setExpiry] = useState<ExpiryChoice>(null);
  const [confirm, setConfirm] = useState<Confirmation>({ password: '', totp: '' });
  const [problem, setProblem] = useState<FormProblem | undefined>();
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const found: FormProblem | undefined = !label.trim()
      ? 'monitoring.nameRequired'
      : chosenCoins.length === 0
        ? 'monitoring.coinsRequired'
        : pages.length === 0
          ? 'monitoring.pagesRequired'
          : confirmProblem(confirm, twoFactor);
    setProblem(found);
    if (found) return;
    create.mutate(
      {
        label: label.trim(),
        // In the coin table's and the page list's order, whatever order they were ticked in.
        coins: coins.filter((coin) => chosenCoins.includes(coin)),
        pages: WATCH_PAGES.filter((page) => pages.includes(page)),
        expiresInDays: expiry,
        ...confirmBody(confirm, twoFactor),
      },
      {
        onSuccess: () => {
          setLabel('');
          setConfirm({ password: '', totp: '' });
        },
      },
    );
  };
  const serverFields = create.error instanceof ApiError ? create.error.fields : {};
  const fieldError = (key: FormProblem, field: string) => (problem === key ? t(key) : serverFields[field]);
  return (
    <form noValidate onSubmit={submit} className="settings-form monitoring__form">
      {create.isError && Object.keys(serverFields).length === 0 ? (
        <ErrorBanner message={errorMessage(create.error, t)} />
      ) : null}
      <TextField
        label={t('monitoring.links.label')}
        hint={t('monitoring.links.labelHint')}
        value={label}
        maxLength={60}
        onChange={setLabel}
        error={fieldError('monitoring.nameRequired', 'label')}
      />
      <Choices
        legend={t('monitoring.links.coins')}
        options={coins.map((coin) => ({ value: coin, label: coin }))}
        chosen={chosenCoins}
        onChange={(value, on) => setCoins((list) => toggle(list, value, on))}
        error={fieldError('monitoring.coinsRequired', 'coins')}
      />
      <Choices
        legend={t('monitoring.links.pages')}
        options={WATCH_PAGES.map((page) => ({ value: page, label: t(`monitoring.pages.${page}`) }))}
        chosen={pages}
        onChange={(value, on) => setPages((list) => toggle(list, value, on))}
        error={fieldError('monitoring.pagesRequired', 'pages')}
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
        {t('monitoring.links.create')}
      </button>
    </form>
  );
}

function Choices<V extends string>({
  legend,
  options,
  chosen,
  onChange,
  error,
}: {
  legend: string;
  options: { value: V; label: string }[];
  chosen: readonly V[];
  onChange: (value: V, on: boolean) => void;
  error: string | undefined;
}) {
  return (
    <fieldset className="field monitoring__choices">
      <legend className="field__label">{legend}</legend>
      {options.map((option) => (
        <label key={option.value} className="monitoring__choice">
          <input
            type="checkbox"
            checked={chosen.includes(option.value)}
            onChange={(event) => onChange(option.value, event.target.checked)}
          />{' '}
          <bdi>{option.label}</bdi>
        </label>
      ))}
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
