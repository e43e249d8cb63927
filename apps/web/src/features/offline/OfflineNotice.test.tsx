import { act, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { OfflineNotice } from './OfflineNotice';

afterEach(() => vi.restoreAllMocks());

it.each([
  ['en', 'No network: Manjam opened from its saved copy. Figures will update when you are back online.'],
  ['ar', 'لا يوجد اتصال بالشبكة: فُتح منجم من نسخته المحفوظة. ستُحدَّث الأرقام عند عودة الاتصال.'],
] as const)(
  'says the app is offline while the network is gone, and nothing once it is back (%s)',
  (lang, notice) => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    renderWithApp(<OfflineNotice />, { lang });
    expect(screen.queryByText(notice)).not.toBeInTheDocument();
    onLine.mockReturnValue(false);
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(screen.getByText(notice)).toHaveAttribute('role', 'status');
    onLine.mockReturnValue(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(screen.queryByText(notice)).not.toBeInTheDocument();
  },
);
