// Worker Setup Guide: algorithm filter tabs, the 19 algorithms with live ports, five steps. It
// opens on a live algorithm, and steps 2-4 always describe the algorithm selected.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner, TabPanel, Tabs } from '../../components';
import { usePoolPorts } from '../../lib/queries';
import { DEFAULT_ALGORITHM, type Algorithm, type MinerType, type PoolPort } from '../api-types';
import {
  DEVICE_ALGORITHMS,
  filterAlgorithms,
  findPort,
  firstLive,
  GUIDE_ALGORITHMS,
  GUIDE_FILTERS,
  guideAlgorithm,
  type GuideAlgorithm,
  type GuideFilter,
} from './algorithms';
import { AlgorithmTable } from './AlgorithmTable';
import { GuideSteps } from './GuideSteps';
import './setup-guide.css';

export interface SetupGuideProps {
  /** The algorithm to open on when no device card chose (the Workers page: SHA-256). */
  algorithm?: Algorithm;
  /** Device type chosen on the dashboard: the guide opens on its first live algorithm. */
  type?: MinerType;
}

/** What the guide opens on before the miner picks: the device's (or the given) first live algorithm. */
function openingAlgorithm(
  algorithm: Algorithm,
  type: MinerType | undefined,
  ports: readonly PoolPort[] | undefined,
): GuideAlgorithm | undefined {
  const candidates = (type ? DEVICE_ALGORITHMS[type] : [algorithm])
    .map(guideAlgorithm)
    .filter((a): a is GuideAlgorithm => a !== undefined);
  return firstLive(candidates, ports);
}

export function SetupGuide({ algorithm = DEFAULT_ALGORITHM, type }: SetupGuideProps) {
  const { t } = useTranslation();
  const ports = usePoolPorts();
  // The miner's own choices; until then both follow the live ports as they load.
  const [chosenFilter, setChosenFilter] = useState<GuideFilter | null>(null);
  const [chosenKey, setChosenKey] = useState<string | null>(null);
  const selected =
    GUIDE_ALGORITHMS.find((a) => a.key === chosenKey) ??
    openingAlgorithm(algorithm, type, ports.data?.ports) ??
    GUIDE_ALGORITHMS[0];
  if (!selected) return null;
  const filter = chosenFilter ?? selected.family;
  const shown = filterAlgorithms(filter);
  const port = ports.data ? findPort(ports.data.ports, selected) : undefined;
  // A V2 row (listed after the table's rows) of the same algorithm, once its key is known.
  const v2 = ports.data?.ports.find(
    (p) => p.protocol === 'v2' && p.live && p.authorityKey && port && p.algorithm === port.algorithm,
  );
  // A filter tab that hides the selected algorithm moves the guide (steps 2-4) to the tab's first live one.
  const changeFilter = (next: GuideFilter): void => {
    setChosenFilter(next);
    const inTab = filterAlgorithms(next);
    if (!inTab.some((a) => a.key === selected.key)) {
      const first = firstLive(inTab, ports.data?.ports);
      if (first) setChosenKey(first.key);
    }
  };

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
        onChange={changeFilter}
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
          onSelect={setChosenKey}
        />
      </TabPanel>
      <GuideSteps
        key={selected.key}
        algorithm={selected}
        host={ports.data?.host}
        port={port?.port ?? selected.seedPort}
        live={port?.live}
        v2={v2?.authorityKey ? { port: v2.port, authorityKey: v2.authorityKey } : undefined}
        liveNames={(ports.data?.ports ?? [])
          .filter((p) => p.live && p.protocol !== 'v2')
          .map((p) => p.name)
          .join(', ')}
      />
    </div>
  );
}
