import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes } from 'react-router';
import { Spinner } from '../components/Spinner';
import HomePage from '../pages/home/HomePage';
import { OperatorOnly, RequireAuth, SignedInOrPrompt, VisitorOnly } from './guards';
import { AppLayout } from './layout/AppLayout';
import { MissingPage } from './MissingPage';

type PageModule = { default: ComponentType };

// Every page except home is its own chunk. Globbing (instead of static imports) lets the shell
// build while a page owned by another engineer does not exist yet: it then shows MissingPage.
const pageModules = import.meta.glob<PageModule>(['../pages/**/*Page.tsx', '!../pages/home/**']);

function page(path: string): LazyExoticComponent<ComponentType> | ComponentType {
  const loader = pageModules[`../pages/${path}.tsx`];
  return loader ? lazy(loader) : MissingPage;
}

const Pages = {
  login: page('login/LoginPage'),
  register: page('register/RegisterPage'),
  forgotPassword: page('forgot-password/ForgotPasswordPage'),
  confirmEmail: page('confirm-email/ConfirmEmailPage'),
  dashboard: page('dashboard/DashboardPage'),
  workers: page('workers/WorkersPage'),
  workerDetail: page('workers/WorkerDetailPage'),
  revenue: page('revenue/RevenuePage'),
  payouts: page('payouts/PayoutsPage'),
  miners: page('miners/MinersPage'),
  settings: page('settings/SettingsPage'),
  marketplace: page('marketplace/MarketplacePage'),
  support: page('support/SupportPage'),
  learn: page('learn/LearnPage'),
  notFound: page('not-found/NotFoundPage'),
  logout: page('logout/LogoutPage'),
  about: page('about/AboutPage'),
  wallet: page('wallet/WalletPage'),
  help: page('help/HelpPage'),
  faq: page('faq/FaqPage'),
  blog: page('blog/BlogPage'),
  terms: page('terms/TermsPage'),
  privacy: page('privacy/PrivacyPage'),
  cookies: page('cookies/CookiesPage'),
  downloads: page('downloads/DownloadsPage'),
  stats: page('stats/StatsPage'),
  algorithm: page('mining/AlgorithmPage'),
  calculator: page('mining/CalculatorPage'),
  operator: page('operator/OperatorPage'),
  watch: page('watch/WatchPage'),
};

function Loading() {
  return (
    <div className="center-block">
      <Spinner size="lg" />
    </div>
  );
}

function show(Component: ComponentType): ReactNode {
  return (
    <Suspense fallback={<Loading />}>
      <Component />
    </Suspense>
  );
}

function PayoutsRoute() {
  const { t } = useTranslation();
  return <SignedInOrPrompt title={t('nav.payouts')}>{show(Pages.payouts)}</SignedInOrPrompt>;
}

/** The seed's route table plus the pages it links to. Unknown paths go to /404. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route index element={<HomePage />} />
        <Route path="login" element={<VisitorOnly>{show(Pages.login)}</VisitorOnly>} />
        <Route path="register" element={<VisitorOnly>{show(Pages.register)}</VisitorOnly>} />
        <Route path="dashboard" element={<RequireAuth>{show(Pages.dashboard)}</RequireAuth>} />
        <Route path="workers" element={<RequireAuth>{show(Pages.workers)}</RequireAuth>} />
        <Route path="workers/:id" element={<RequireAuth>{show(Pages.workerDetail)}</RequireAuth>} />
        <Route path="revenue" element={<RequireAuth>{show(Pages.revenue)}</RequireAuth>} />
        <Route path="settings" element={<RequireAuth>{show(Pages.settings)}</RequireAuth>} />
        <Route path="payouts" element={<PayoutsRoute />} />
        <Route path="miners" element={show(Pages.miners)} />
        <Route path="forgot-password" element={show(Pages.forgotPassword)} />
        {/* Not visitor-only: an email change's link is often opened while signed in. */}
        <Route path="confirm-email" element={show(Pages.confirmEmail)} />
        <Route path="marketplace" element={show(Pages.marketplace)} />
        <Route path="support" element={show(Pages.support)} />
        <Route path="learn" element={show(Pages.learn)} />
        <Route path="about" element={show(Pages.about)} />
        <Route path="wallet" element={show(Pages.wallet)} />
        <Route path="help" element={show(Pages.help)} />
        <Route path="faq" element={show(Pages.faq)} />
        <Route path="blog" element={show(Pages.blog)} />
        <Route path="terms" element={show(Pages.terms)} />
        <Route path="privacy" element={show(Pages.privacy)} />
        <Route path="cookies" element={show(Pages.cookies)} />
        <Route path="downloads" element={show(Pages.downloads)} />
        <Route path="stats" element={show(Pages.stats)} />
        <Route path="mining/calculator" element={show(Pages.calculator)} />
        <Route path="mining/:algorithm" element={show(Pages.algorithm)} />
        <Route path="operator" element={<OperatorOnly>{show(Pages.operator)}</OperatorOnly>} />
        {/* A watcher link: public, read-only, whoever holds the link. */}
        <Route path="watch/:token" element={show(Pages.watch)} />
        <Route path="logout" element={show(Pages.logout)} />
        <Route path="404" element={show(Pages.notFound)} />
        <Route path="*" element={<Navigate to="/404" replace />} />
      </Route>
    </Routes>
  );
}
