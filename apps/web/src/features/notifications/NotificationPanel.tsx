import { forwardRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Spinner } from '../../components/Spinner';
import { errorMessage } from '../../lib/errors';
import { formatDate, formatDateTime, formatRelative } from '../../lib/format';
import { useMarkAllRead, useMarkRead, useNotifications, type AppNotification } from './api';
import { dayWord, groupNotifications, splitLongHex, type NotificationGroup } from './grouping';

/** A notification's text: long hashes shortened (the full value in the title), everything else wraps. */
function NotificationText({ text }: { text: string }) {
  return (
    <>
      {splitLongHex(text).map((part, index) =>
        'hex' in part ? (
          <span key={index} className="notif-item__hex" dir="ltr" title={part.hex}>
            {part.short}
          </span>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </>
  );
}

function NotificationItem({
  item,
  onRead,
  busy,
}: {
  item: AppNotification;
  onRead: (id: number) => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  return (
    <li className={`notif-item${item.read ? '' : ' notif-item--unread'}`}>
      <button
        type="button"
        className="notif-item__button"
        aria-disabled={item.read || busy}
        onClick={() => !item.read && !busy && onRead(item.id)}
      >
        <span className="notif-item__title">
          {item.read ? null : <span className="notif-item__dot" aria-hidden="true" />}
          <span>
            <NotificationText text={item.title} />
          </span>
          <span className="visually-hidden">{`, ${item.read ? t('notifications.read') : t('notifications.unread')}`}</span>
        </span>
        <span className="notif-item__body">
          <NotificationText text={item.body} />
        </span>
        <time className="notif-item__time" dateTime={item.createdAt} title={formatDateTime(item.createdAt)}>
          {formatRelative(item.createdAt)}
        </time>
      </button>
    </li>
  );
}

const GROUP_KINDS = [
  'block-found',
  'worker-offline',
  'worker-recovered',
  'hashrate-drop',
  'payout-sent',
] as const;

/** "12 blocks found today": the group's line, which opens to its notifications. */
function GroupItem({
  group,
  onRead,
  busy,
}: {
  group: NotificationGroup;
  onRead: (id: number) => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const word = dayWord(group.day);
  const day =
    word === 'earlier'
      ? t('notifications.day.on', { date: formatDate(group.items[0]?.createdAt ?? group.day) })
      : t(`notifications.day.${word}`);
  const kind = (GROUP_KINDS as readonly string[]).includes(group.kind) ? group.kind : 'other';
  const title = t(`notifications.groups.${kind as (typeof GROUP_KINDS)[number] | 'other'}`, {
    count: group.total,
    day,
  });
  return (
    <li className={`notif-group${group.unread > 0 ? ' notif-item--unread' : ''}`}>
      <button
        type="button"
        className="notif-item__button notif-group__button"
        aria-expanded={open}
        onClick={() => setOpen((current) => !current)}
      >
        <span className="notif-item__title">
          {group.unread > 0 ? <span className="notif-item__dot" aria-hidden="true" /> : null}
          <span>{title}</span>
        </span>
        <span className="notif-item__body">
          {group.unread > 0
            ? t('notifications.groupUnread', { count: group.unread })
            : t('notifications.groupRead')}
          {' · '}
          {open ? t('notifications.hide') : t('notifications.show', { count: group.items.length })}
        </span>
      </button>
      {open ? (
        <ul className="notif-panel__list notif-group__list">
          {group.items.map((item) => (
            <NotificationItem key={item.id} item={item} busy={busy} onRead={onRead} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

export interface NotificationPanelProps {
  id: string;
  titleId: string;
}

/** The popover list under the bell: repeats grouped by kind and day, a click marks one read, one button marks all. */
export const NotificationPanel = forwardRef<HTMLDivElement, NotificationPanelProps>(
  function NotificationPanel({ id, titleId }, ref) {
    const { t } = useTranslation();
    const list = useNotifications();
    const markRead = useMarkRead();
    const markAll = useMarkAllRead();
    const items = list.data?.items ?? [];
    const unread = items.some((item) => !item.read);
    const busy = markRead.isPending || markAll.isPending;
    const onRead = (itemId: number): void => markRead.mutate(itemId);
    return (
      <div ref={ref} id={id} className="notif-panel" role="dialog" aria-labelledby={titleId} tabIndex={-1}>
        <div className="notif-panel__head">
          <h2 id={titleId} className="notif-panel__title">
            {t('notifications.title')}
          </h2>
          {unread ? (
            <button
              type="button"
              className="btn btn--ghost btn--sm"
              disabled={busy}
              onClick={() => markAll.mutate()}
            >
              {t('notifications.markAllRead')}
            </button>
          ) : null}
        </div>
        {list.isPending ? <Spinner /> : null}
        {list.isError ? (
          <ErrorBanner message={errorMessage(list.error, t, t('notifications.loadError'))} />
        ) : null}
        {markRead.isError ? (
          <ErrorBanner message={errorMessage(markRead.error, t, t('notifications.markError'))} />
        ) : null}
        {markAll.isError ? (
          <ErrorBanner message={errorMessage(markAll.error, t, t('notifications.markAllError'))} />
        ) : null}
        {list.data && items.length === 0 ? (
          <p className="notif-panel__empty muted">{t('notifications.empty')}</p>
        ) : null}
        {items.length > 0 ? (
          <ul className="notif-panel__list">
            {groupNotifications(items).map((group) =>
              group.items.length === 1 && group.items[0] ? (
                <NotificationItem key={group.items[0].id} item={group.items[0]} busy={busy} onRead={onRead} />
              ) : (
                <GroupItem key={group.key} group={group} busy={busy} onRead={onRead} />
              ),
            )}
          </ul>
        ) : null}
      </div>
    );
  },
);
