import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render';
import HomePage, { searchTarget } from './HomePage';

describe('home page', () => {
  it('welcomes visitors and links Start Mining to /register and Learn More to /about', () => {
    renderWithApp(<HomePage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome to Manjam' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Start Mining' })[0]).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: 'Learn More' })).toHaveAttribute('href', '/about');
    expect(screen.getByRole('link', { name: 'Create Your Account' })).toHaveAttribute('href', '/register');
  });

  it('searches /miners with the trimmed, encoded text and ignores blank searches', () => {
    renderWithApp(<HomePage />);
    const box = screen.getByRole('searchbox', { name: 'Search by wallet address (or address.worker)' });
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    fireEvent.change(box, { target: { value: '  rig #1 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/miners?search=rig%20%231');
  });

  it('shows six feature cards and six algorithm cards with the published fees', () => {
    renderWithApp(<HomePage />);
    expect(screen.getAllByRole('link', { name: 'Start Mining' })).toHaveLength(7);
    expect(screen.getByRole('heading', { name: 'Kaspa' }).closest('li')).toHaveTextContent('0.9%');
    expect(screen.getByRole('heading', { name: 'Kaspa' }).closest('li')).toHaveTextContent('12 hours');
    expect(searchTarget('bc1q test')).toBe('/miners?search=bc1q%20test');
  });
});
