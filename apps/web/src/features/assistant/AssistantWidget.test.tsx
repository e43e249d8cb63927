import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { jsonResponse } from '../../../test/render';
import { AssistantWidget } from './AssistantWidget';

/** Moves fake time forward inside act, letting React render what the timers changed. */
async function advance(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

function renderWidget(lang: 'en' | 'ar' = 'en') {
  localStorage.setItem('language', lang);
  initI18n(lang);
  return render(<AssistantWidget />);
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('assistant on a first visit', () => {
  it('opens by itself after 3 seconds and remembers the visit', async () => {
    renderWidget();
    await advance(2999);
    expect(screen.queryByRole('dialog', { name: 'Manjam Mining Assistant' })).not.toBeInTheDocument();
    await advance(1);
    expect(screen.getByRole('dialog', { name: 'Manjam Mining Assistant' })).toBeInTheDocument();
    expect(localStorage.getItem('hasVisitedBefore')).toBe('true');
  });

  it('greets in Arabic when Arabic is the stored language', async () => {
    renderWidget('ar');
    await advance(3000);
    expect(screen.getByRole('dialog', { name: 'مساعد التعدين من منجم' })).toHaveTextContent(
      'مرحبًا! أنا مساعد التعدين من منجم.',
    );
  });
});

describe('assistant on a return visit', () => {
  beforeEach(() => localStorage.setItem('hasVisitedBefore', 'true'));

  it('stays closed and shows the hint bubble after 5 seconds', async () => {
    renderWidget();
    await advance(4999);
    expect(screen.queryByText('Need help with mining setup or information?')).not.toBeInTheDocument();
    await advance(1);
    expect(screen.getByText('Need help with mining setup or information?')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('does not show the hint once the chat has been toggled', async () => {
    renderWidget();
    fireEvent.click(screen.getByRole('button', { name: 'Mining Help' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await advance(6000);
    expect(screen.queryByText('Need help with mining setup or information?')).not.toBeInTheDocument();
  });

  it('Get Started opens the chat and asks "How to start mining?" half a second later', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValue(jsonResponse({ reply: 'Pick a port, set your worker, password x.' }));
    vi.stubGlobal('fetch', fetchMock);
    renderWidget();
    await advance(5000);
    fireEvent.click(screen.getByRole('button', { name: 'Get Started' }));
    expect(screen.getByRole('dialog', { name: 'Manjam Mining Assistant' })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    await advance(499);
    expect(fetchMock).not.toHaveBeenCalled();
    await advance(1);
    expect(screen.getByText('How to start mining?')).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/assistant');
    expect(JSON.parse(init.body as string)).toEqual({
      message: 'How to start mining?',
      language: 'en',
      history: [],
    });
    await advance(10);
    expect(screen.getByText('Pick a port, set your worker, password x.')).toBeInTheDocument();
  });
});

describe('assistant conversation', () => {
  beforeEach(() => {
    // No timers matter here: real timers let findBy* poll normally.
    vi.useRealTimers();
    localStorage.setItem('hasVisitedBefore', 'true');
  });

  it('shows Thinking... while waiting and then the reply, sending earlier turns as history', async () => {
    let answer: (r: Response) => void = () => undefined;
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(jsonResponse({ reply: 'SHA-256 is on port 3333.' }))
      .mockImplementationOnce(
        () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      );
    vi.stubGlobal('fetch', fetchMock);
    renderWidget();
    fireEvent.click(screen.getByRole('button', { name: 'Mining Help' }));
    fireEvent.click(screen.getByRole('button', { name: 'Bitcoin Mining' }));
    expect(await screen.findByText('SHA-256 is on port 3333.')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Your question'), { target: { value: 'And Litecoin?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByText('Thinking...')).toBeInTheDocument();
    const body = JSON.parse((fetchMock.mock.calls[1] as [string, RequestInit])[1].body as string) as {
      history: unknown[];
    };
    expect(body.history).toEqual([
      { role: 'user', content: 'Bitcoin Mining' },
      { role: 'assistant', content: 'SHA-256 is on port 3333.' },
    ]);
    await act(async () => {
      answer(jsonResponse({ reply: 'Scrypt is on port 4444.' }));
      await Promise.resolve();
    });
    expect(await screen.findByText('Scrypt is on port 4444.')).toBeInTheDocument();
    expect(screen.queryByText('Thinking...')).not.toBeInTheDocument();
  });

  it('shows a clear error bubble, not an invented answer, when the server fails', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    renderWidget();
    fireEvent.click(screen.getByRole('button', { name: 'Mining Help' }));
    fireEvent.click(screen.getByRole('button', { name: 'Profitability' }));
    expect(
      await screen.findByText(
        /Sorry, the assistant could not answer right now\. Cannot reach the Manjam server/,
      ),
    ).toBeInTheDocument();
  });
});
