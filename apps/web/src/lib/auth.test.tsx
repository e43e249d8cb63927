import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signInForTest, TEST_USER } from '../../test/render';
import { signIn, signOut, useAuth } from './auth';

function Probe() {
  const { isSignedIn, user } = useAuth();
  return <p>{isSignedIn ? `in:${user?.username ?? ''}` : 'out'}</p>;
}

describe('useAuth', () => {
  it('is signed in only with both a token and a parsable user', () => {
    localStorage.setItem('user', JSON.stringify(TEST_USER));
    const { unmount } = render(<Probe />);
    expect(screen.getByText('out')).toBeInTheDocument();
    unmount();
    localStorage.setItem('token', 't');
    localStorage.setItem('user', '{not json');
    render(<Probe />);
    expect(screen.getByText('out')).toBeInTheDocument();
  });

  it('follows sign-in and sign-out in this tab', () => {
    render(<Probe />);
    act(() => signIn('t', TEST_USER));
    expect(screen.getByText('in:sahara_miner')).toBeInTheDocument();
    act(() => signOut());
    expect(screen.getByText('out')).toBeInTheDocument();
  });

  it('re-checks on storage events from other tabs', () => {
    render(<Probe />);
    act(() => {
      signInForTest();
      window.dispatchEvent(new StorageEvent('storage', { key: 'token' }));
    });
    expect(screen.getByText('in:sahara_miner')).toBeInTheDocument();
    act(() => {
      localStorage.removeItem('user');
      window.dispatchEvent(new StorageEvent('storage', { key: 'user' }));
    });
    expect(screen.getByText('out')).toBeInTheDocument();
  });
});
