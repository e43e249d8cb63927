import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/Icon';
import { useAssistantTimers } from './useAssistantTimers';
import { useChat } from './useChat';
import './assistant.css';

const QUICK_REPLIES = [
  'assistant.quick.bitcoin',
  'assistant.quick.hardware',
  'assistant.quick.start',
  'assistant.quick.profitability',
  'assistant.quick.pool',
] as const;

function BotAvatar() {
  return (
    <span className="assistant__avatar" aria-hidden="true">
      <Icon name="bot" size={18} />
    </span>
  );
}

/**
 * The floating 'Mining Help' button, hint bubble and chat panel, present and shown on every page:
 * it never hides; the layout keeps room for it (tokens.css --help-room) so it covers nothing.
 */
export function AssistantWidget() {
  const { t } = useTranslation();
  const id = useId();
  const timers = useAssistantTimers();
  const chat = useChat();
  const [draft, setDraft] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    listRef.current?.scrollTo?.({ top: listRef.current.scrollHeight });
  }, [chat.bubbles, chat.thinking]);

  const toggle = (): void => {
    const next = !timers.open;
    timers.setOpen(next);
    if (next) setTimeout(() => inputRef.current?.focus(), 0);
  };

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const text = draft;
    setDraft('');
    void chat.send(text);
  };

  return (
    <div className="assistant">
      {timers.hintVisible ? (
        <div className="assistant__hint" role="status">
          <button
            type="button"
            className="icon-btn assistant__hint-close"
            onClick={timers.dismissHint}
            aria-label={t('assistant.hintDismiss')}
          >
            <Icon name="close" size={14} />
          </button>
          <p>{t('assistant.hint')}</p>
          <button
            type="button"
            className="btn btn--primary btn--sm"
            onClick={() => timers.startFromHint(() => void chat.send(t('assistant.getStartedMessage')))}
          >
            {t('assistant.getStarted')}
          </button>
        </div>
      ) : null}
      {timers.open ? (
        <section
          id={`${id}-panel`}
          className="assistant__panel"
          role="dialog"
          aria-labelledby={`${id}-title`}
          onKeyDown={(event) => event.key === 'Escape' && timers.setOpen(false)}
        >
          <div className="assistant__header">
            <BotAvatar />
            <h2 id={`${id}-title`} className="assistant__title">
              {t('assistant.title')}
            </h2>
            <button
              type="button"
              className="icon-btn"
              onClick={() => timers.setOpen(false)}
              aria-label={t('common.close')}
            >
              <Icon name="close" />
            </button>
          </div>
          <div
            ref={listRef}
            className="assistant__messages"
            role="log"
            aria-live="polite"
            aria-label={t('assistant.messages')}
          >
            {chat.bubbles.map((bubble) => (
              <div
                key={bubble.id}
                className={`bubble ${bubble.isBot ? 'bubble--bot' : 'bubble--user'}${bubble.isError ? ' bubble--error' : ''}`}
              >
                {bubble.isBot ? <BotAvatar /> : null}
                <p className="bubble__text" dir="auto">
                  {bubble.text}
                </p>
              </div>
            ))}
            {chat.thinking ? (
              <div className="bubble bubble--bot bubble--thinking">
                <BotAvatar />
                <p className="bubble__text">{t('assistant.thinking')}</p>
              </div>
            ) : null}
          </div>
          <div className="assistant__quick" role="group" aria-label={t('assistant.quickLabel')}>
            {QUICK_REPLIES.map((key) => (
              <button
                key={key}
                type="button"
                className="chip"
                disabled={chat.thinking}
                onClick={() => void chat.send(t(key))}
              >
                {t(key)}
              </button>
            ))}
          </div>
          <form className="assistant__form" onSubmit={submit}>
            <label htmlFor={`${id}-input`} className="visually-hidden">
              {t('assistant.inputLabel')}
            </label>
            <input
              ref={inputRef}
              id={`${id}-input`}
              className="field__control"
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              placeholder={t('assistant.placeholder')}
              autoComplete="off"
            />
            <button
              type="submit"
              className="icon-btn assistant__send"
              disabled={chat.thinking || !draft.trim()}
            >
              <Icon name="send" />
              <span className="visually-hidden">{t('assistant.send')}</span>
            </button>
          </form>
        </section>
      ) : null}
      <button
        type="button"
        className="assistant__fab"
        aria-label={t('assistant.button')}
        aria-expanded={timers.open}
        aria-controls={timers.open ? `${id}-panel` : undefined}
        onClick={toggle}
      >
        <Icon name={timers.open ? 'close' : 'chat'} size={24} />
        <span className="assistant__fab-label">{t('assistant.button')}</span>
      </button>
    </div>
  );
}
