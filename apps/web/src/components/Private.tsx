// A figure the user chose to hide in Settings (Show Balance / Show Hashrate): shown as dots with
// a label that says why, in every place the figure appears.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../lib/queries';

export type PrivateKind = 'balance' | 'hashrate';

/** Whether the signed-in user shows their balances and hashrates (both shown until settings load). */
export function useFigureVisibility(): Record<PrivateKind, boolean> {
  const settings = useSettings();
  return { balance: settings.data?.showBalance ?? true, hashrate: settings.data?.showHashrate ?? true };
}

export interface PrivateProps {
  kind: PrivateKind;
  children: ReactNode;
}

export function Private({ kind, children }: PrivateProps) {
  const { t } = useTranslation();
  const visible = useFigureVisibility()[kind];
  if (visible) return <>{children}</>;
  const label = t(kind === 'balance' ? 'common.balanceHidden' : 'common.hashrateHidden');
  return (
    <span className="private-figure" role="img" aria-label={label} title={label}>
      ••••
    </span>
  );
}
