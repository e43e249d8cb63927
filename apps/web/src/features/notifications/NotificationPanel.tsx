import { forwardRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Spinner } from '../../components/Spinner';
import { errorMessage } from '../../lib/errors';
import { formatDateTime, formatRelative } from '../../lib/format';
import { useMarkRead, useNotifications, type AppNotification } from './api';

function NotificationItem({ item, onRead, busy }: { item: AppNotification; onRead: (id: number) => void; busy: boolean }) {
  const { t } = useTranslation();
  return (
    <li className={`notif-item${item.read ? '' : ' notif-item--unread'}`}>
      <button type="button" className="notif-item__button" aria-disabled={item.read || busy} onClick={() => !item.read && !busy && onRead(item.id)}>
        <span className="notif-item__title">
          {item.read ? null : <span className="notif-item__dot" aria-hidden="true" />}
          {item.title}
          <span className="visually-hidden">{`, ${item.read ? t('notifications.read') : t('notifications.unread')}`}</span>
        </span>
        <span className="notif-item__body">{item.body}</span>
        <time className="notif-item__time" dateTime={item.createdAt} title={formatDateTime(item.createdAt)}>{formatRelative(item.createdAt)}</time>
      </button>
    </li>
  );
}

export interface NotificationPanelProps {
  id: string;
  titleId: string;
}

/** The popover list under the bell: latest notifications, a click marks one read. */
export const NotificationPanel = forwardRef<HTMLDivElement, NotificationPanelProps>(function NotificationPanel({ id, titleId }, ref) {
  const { t } = useTranslation();
  const list = useNotifications();
  const markRead = useMarkRead();
  const items = list.data?.items ?? [];
  return (
    <div ref={ref} id={id} className="notif-panel" role="dialog" aria-labelledby={titleId} tabIndex={-1}>
      <h2 id={titleId} className="notif-panel__title">{t('notifications.title')}</h2>
      {list.isPending ? <Spinner /> : null}
      {list.isError ? <ErrorBanner message={errorMessage(list.error, t, t('notifications.loadError'))} /> : null}
      {markRead.isError ? <ErrorBanner message={errorMessage(markRead.error, t, t('notifications.markError'))} /> : null}
      {list.data && items.length === 0 ? <p className="notif-panel__empty muted">{t('notifications.empty')}</p> : null}
      {items.length > 0 ? (
        <ul className="notif-panel__list">
          {items.map((item) => (
            <NotificationItem key={item.id} item={item} busy={markRead.isPending} onRead={(itemId) => markRead.mutate(itemId)} />
          ))}
        </ul>
      ) : null}
    </div>
  );
});
