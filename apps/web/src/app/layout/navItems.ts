import type { IconName } from '../../components/Icon';

export interface NavItem {
  to: string;
  labelKey: 'nav.home' | 'nav.dashboard' | 'nav.workers' | 'nav.revenue' | 'nav.marketplace' | 'nav.settings';
  icon: IconName;
  signedInOnly: boolean;
}

/** Order of the top bar and sidebar links (seed: Home, Dashboard, Workers, Revenue, Marketplace, Settings). */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', labelKey: 'nav.home', icon: 'home', signedInOnly: false },
  { to: '/dashboard', labelKey: 'nav.dashboard', icon: 'dashboard', signedInOnly: true },
  { to: '/workers', labelKey: 'nav.workers', icon: 'workers', signedInOnly: true },
  { to: '/revenue', labelKey: 'nav.revenue', icon: 'revenue', signedInOnly: true },
  { to: '/marketplace', labelKey: 'nav.marketplace', icon: 'market', signedInOnly: false },
  { to: '/settings', labelKey: 'nav.settings', icon: 'settings', signedInOnly: true },
];

export function initials(username: string): string {
  return username.slice(0, 2).toUpperCase();
}
