// The routes the browser tests visit: every route of the seed and every page it links to.
import { ALGORITHM_PAGE_IDS } from '@manjam/contract';

export const PUBLIC_ROUTES = [
  '/',
  '/login',
  '/register',
  '/forgot-password',
  '/confirm-email',
  '/marketplace',
  '/support',
  '/learn',
  '/404',
  '/about',
  '/miners',
  '/miners?search=bcrt1qexample',
  '/wallet',
  '/help',
  '/faq',
  '/blog',
  '/terms',
  '/privacy',
  '/cookies',
  '/downloads',
  '/stats',
  '/payouts',
  // Each algorithm page of the port table, then the calculator.
  ...ALGORITHM_PAGE_IDS.map((id) => `/mining/${id}`),
  '/mining/calculator',
];
export const PROTECTED_ROUTES = ['/dashboard', '/workers', '/revenue', '/settings'];

/** A file-name-safe name for a route's screenshot. */
export const slug = (route: string): string =>
  route === '/' ? 'home' : route.slice(1).replace(/[/?=]/g, '_');
