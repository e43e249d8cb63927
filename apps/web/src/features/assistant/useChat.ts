import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import type { AssistantRequest, AssistantResponse, ChatHistoryItem } from '../../lib/api-types';
import { errorMessage } from '../../lib/errors';

/** How many recent messages are kept and sent with each request (seed: about 10). */
export const HISTORY_LIMIT = 10;

export interface ChatBubble {
  id: number;
  text: string;
  isBot: boolean;
  isError?: boolean;
}

export interface UseChat {
  bubbles: ChatBubble[];
  thinking: boolean;
  send: (text: string) => Promise<void>;
}

/** Chat state: the welcome bubble, POST /api/assistant with recent history, a clear error bubble on failure. */
export function useChat(): UseChat {
  const { t, i18n } = useTranslation();
  const nextId = useRef(1);
  const history = useRef<ChatHistoryItem[]>([]);
  const [bubbles, setBubbles] = useState<ChatBubble[]>(() => [
    { id: 0, text: t('assistant.welcome'), isBot: true },
  ]);
  const [thinking, setThinking] = useState(false);

  const push = useCallback((bubble: Omit<ChatBubble, 'id'>) => {
    const id = nextId.current++;
    setBubbles((current) => [...current, { ...bubble, id }]);
  }, []);

  const send = useCallback(
    async (raw: string): Promise<void> => {
      const message = raw.trim();
      if (!message) return;
      push({ text: message, isBot: false });
      setThinking(true);
      const body: AssistantRequest = {
        message,
        language: i18n.language === 'ar' ? 'ar' : 'en',
        history: history.current.slice(-HISTORY_LIMIT),
      };
      try {
        const { reply } = await apiFetch<AssistantResponse>('/api/assistant', { method: 'POST', body });
        history.current = [
          ...history.current,
          { role: 'user' as const, content: message },
          { role: 'assistant' as const, content: reply },
        ].slice(-HISTORY_LIMIT);
        push({ text: reply, isBot: true });
      } catch (error) {
        push({ text: t('assistant.error', { reason: errorMessage(error, t) }), isBot: true, isError: true });
      } finally {
        setThinking(false);
      }
    },
    [i18n.language, push, t],
  );

  return { bubbles, thinking, send };
}
