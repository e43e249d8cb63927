import { screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { renderWithApp } from '../../../test/render';
import MarketplacePage from './MarketplacePage';

it.each([
  ['en', 'Launch Date', 'Not available yet.'],
  ['ar', 'موعد الإطلاق', 'غير متاح بعد.'],
] as const)('says the marketplace is not available yet and promises no date (%s)', (lang, title, text) => {
  renderWithApp(<MarketplacePage />, { lang });
  const card = screen.getByRole('heading', { name: title }).closest('li') as HTMLElement;
  expect(card).toHaveTextContent(text);
  expect(document.body).not.toHaveTextContent(/20\d\d|Q[1-4]|الربع/);
});
