import type { IconName } from '../../components/Icon';

export interface NavItem {
  to: string;
  labelKey:
    | 'nav.home'
    | 'nav.dashboard'
    | 'nav.workers'
    | 'nav.revenue'
    | 'nav.marketplace'
    | 'nav.settings'
    | 'nav.operator';
  icon: IconName;
  signedInOnly: boolean;
  /** Shown only to accounts with the operator role (GET /api/me `operator`). */
  operatorOnly?: boolean;
}

/** Order of the top bar and sidebar links (seed: Home, Dashboard, Workers, Revenue, Marketplace, Settings). */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', labelKey: 'nav.home', icon: 'home', signedInOnly: false },
  { to: '/dashboard', labelKey: 'nav.dashboard', icon: 'dashboard', signedInOnly: true },
  { to: '/workers', labelKey: 'nav.workers', icon: 'workers', signedInOnly: true },
  { to: '/revenue', labelKey: 'nav.revenue', icon: 'revenue', signedInOnly: true },
  { to: '/marketplace', labelKey: 'nav.marketplace', icon: 'market', signedInOnly: false },
  { to: '/settings', labelKey: 'nav.settings', icon: 'settings', signedInOnly: true },
  { to: '/operator', labelKey: 'nav.operator', icon: 'shield', signedInOnly: true, operatorOnly: true },
];

/** The links a visitor, a signed-in user or an operator sees. */
export function visibleNavItems(isSignedIn: boolean, isOperator: boolean | undefined): NavItem[] {
  return NAV_ITEMS.filter(
    (item) => (isSignedIn || !item.signedInOnly) && (isOperator === true || !item.operatorOnly),
  );
}

export function initials(username: string): string {
  return username.slice(0, 2).toUpperCase();
}
