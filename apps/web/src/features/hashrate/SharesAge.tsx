// How old the hashrate figures are: "Shares counted up to 14:05" under them, or "No shares
// since 13:40" once no share has come in the real-time window (the 10 minutes that make a worker
// online and an algorithm's worker active), so the figures, the status and the age agree.
import { useTranslation } from 'react-i18next';
import { FiguresAge } from '../../components';
import type { AlgorithmHashrate, Worker } from '../api-types';

function SharesAge({ at, behind }: { at: string | null; behind: boolean }) {
  const { t } = useTranslation();
  return (
    <FiguresAge
      at={at}
      behind={behind}
      upTo={(time) => t('dashboard.hashrates.countedUpTo', { time })}
      late={(time) => t('dashboard.hashrates.noSharesSince', { time })}
    />
  );
}

/** Under an algorithm's figures: behind while none of its workers is active. */
export function AlgorithmSharesAge({
  figures,
}: {
  figures: Pick<AlgorithmHashrate, 'countedUpTo' | 'activeWorkers'>;
}) {
  return <SharesAge at={figures.countedUpTo} behind={figures.activeWorkers === 0} />;
}

/** Under a worker's figures: its last accepted share, behind while it is not online. */
export function WorkerSharesAge({ worker }: { worker: Pick<Worker, 'lastSeen' | 'status'> }) {
  return <SharesAge at={worker.lastSeen} behind={worker.status !== 'online'} />;
}
