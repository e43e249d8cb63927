import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { AssistantWidget } from './AssistantWidget';

const HINT = 'Need help with mining setup or information?';

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
  localStorage.setItem('hasVisitedBefore', 'true');
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the Mining Help hint bubble', () => {
  it('is shown once in a browser: the next page load does not bring it back', async () => {
    const first = renderWidget();
    await advance(5000);
    expect(screen.getByText(HINT)).toBeInTheDocument();
    first.unmount();
    renderWidget();
    await advance(10_000);
    expect(screen.queryByText(HINT)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mining Help' })).toBeInTheDocument();
  });

  it('hides with its own button, named in Arabic too', async () => {
    renderWidget('ar');
    await advance(5000);
    expect(screen.getByText('هل تحتاج مساعدة في إعداد التعدين أو معلومات عنه؟')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'إخفاء هذا التلميح' }));
    expect(screen.queryByText('هل تحتاج مساعدة في إعداد التعدين أو معلومات عنه؟')).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
