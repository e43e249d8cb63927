// Worker Setup Guide: algorithm filter tabs, the 19 algorithms with live ports, five steps.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner, TabPanel, Tabs } from '../../components';
import { usePoolPorts } from '../../lib/queries';
import type { Algorithm, MinerType } from '../api-types';
import {
  filterAlgorithms,
  filterForAlgorithm,
  findPort,
  GUIDE_ALGORITHMS,
  GUIDE_FILTERS,
  guideKeyForAlgorithm,
  type GuideFilter,
} from './algorithms';
import { AlgorithmTable } from './AlgorithmTable';
import { GuideSteps } from './GuideSteps';
import './setup-guide.css';

export interface SetupGuideProps {
  /** Algorithm chosen by the device card (asic -> sha256, gpu -> ethash, cpu -> randomx). */
  algorithm?: Algorithm;
  /** Device type chosen on the dashboard, shown above the guide. */
  type?: MinerType;
}

export function SetupGuide({ algorithm = 'sha256', type }: SetupGuideProps) {
  const { t } = useTranslation();
  const ports = usePoolPorts();
  const [filter, setFilter] = useState<GuideFilter>(filterForAlgorithm(algorithm));
  const [selectedKey, setSelectedKey] = useState(guideKeyForAlgorithm(algorithm));
  const shown = filterAlgorithms(filter);
  const selected = GUIDE_ALGORITHMS.find((a) => a.key === selectedKey) ?? GUIDE_ALGORITHMS[0];
  if (!selected) return null;
  const port = ports.data ? findPort(ports.data.ports, selected) : undefined;

  return (
    <div className="setup-guide stack">
      {type ? (
        <p className="setup-guide__device">
          <span className="badge badge--muted">{t(`miners.types.${type}`)}</span>{' '}
          {t(`dashboard.devices.${type}.body`)}
        </p>
      ) : null}
      <Tabs
        idBase="guide-filter"
        label={t('setupGuide.filtersLabel')}
        value={filter}
        onChange={setFilter}
        tabs={GUIDE_FILTERS.map((f) => ({ id: f, label: t(`setupGuide.filters.${f}`) }))}
      />
      <TabPanel idBase="guide-filter" value={filter}>
        {ports.isError ? (
          <ErrorBanner message={t('setupGuide.portsError')} onRetry={() => void ports.refetch()} />
        ) : null}
        <AlgorithmTable
          algorithms={shown}
          ports={ports.data?.ports}
          selected={selected.key}
          onSelect={setSelectedKey}
        />
      </TabPanel>
      <GuideSteps
        key={selected.key}
        algorithm={selected}
        host={ports.data?.host}
        port={port?.port ?? selected.seedPort}
        live={port?.live}
        liveNames={(ports.data?.ports ?? [])
          .filter((p) => p.live)
          .map((p) => p.name)
          .join(', ')}
      />
    </div>
  );
}
