import { DEFAULT_POOL_COIN, decimalsOf, type Block } from '@manjam/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '../../components/Select';
import { TextField } from '../../components/TextField';
import { Table, type Column } from '../../components/Table';
import { Ltr } from '../../components/Ltr';
import { baseUnitsToDecimal, formatDifficulty, formatNumber, formatTiny } from '../../lib/format';
import { useBlocks, usePoolStats } from '../../lib/queries';
import { CALCULATOR_COINS } from '../../coins/registry';
import {
  calculatorCoin,
  estimateEarnings,
  HASHRATE_UNITS,
  nodeDifficulty,
  nodeDifficultyHashes,
  parseDecimalInput,
  type CalcCoin,
  type Earnings,
  type HashrateUnit,
} from './calculator';

const PERIODS = ['daily', 'weekly', 'monthly'] as const;

/**
 * The block reward to pre-fill for a coin: the reward of the newest block of that coin the pool
 * found, exactly as /stats lists it (the same /api/blocks answer), else the coin's subsidy above.
 */
export function prefilledReward(coin: CalcCoin, blocks: readonly Block[] | undefined): string {
  const newest = blocks?.find((block) => block.coin === coin && block.status !== 'orphaned');
  return newest
    ? baseUnitsToDecimal(newest.reward, decimalsOf(newest.coin), 0)
    : (calculatorCoin(coin)?.reward ?? '');
}

export default function CalculatorPage() {
  const { t } = useTranslation();
  const stats = usePoolStats();
  const [coin, setCoin] = useState<CalcCoin>(DEFAULT_POOL_COIN);
  const [hashrate, setHashrate] = useState('100');
  const [unit, setUnit] = useState<HashrateUnit>(calculatorCoin(DEFAULT_POOL_COIN)?.unit ?? 'TH/s');
  const [difficultyText, setDifficultyText] = useState('');
  const blocks = useBlocks(1);
  // null: the miner has not typed a reward for this coin; the pre-filled one follows /api/blocks.
  const [rewardText, setReward] = useState<string | null>(null);
  const reward = rewardText ?? prefilledReward(coin, blocks.data?.items);
  const [price, setPrice] = useState('');
  const [feeText, setFeeText] = useState('');

  // Only the coin's own network difficulty will do (Dogecoin's differs from Litecoin's on the same algorithm).
  const live = stats.data?.algorithms.find((a) => a.coin === coin);
  const liveDifficulty =
    live && live.networkDifficulty !== null ? nodeDifficulty(live.networkDifficulty, live.coin) : null;
  const difficulty = difficultyText ? parseDecimalInput(difficultyText) : (liveDifficulty ?? Number.NaN);
  const feePercent = feeText ? parseDecimalInput(feeText) : (live?.fee ?? 1);
  const result = estimateEarnings({
    hashrate: parseDecimalInput(hashrate),
    unit,
    difficulty,
    hashesPerDifficulty: nodeDifficultyHashes(coin),
    blockReward: parseDecimalInput(reward),
    feePercent,
    price: price ? parseDecimalInput(price) : 0,
  });

  const chooseCoin = (next: CalcCoin): void => {
    setCoin(next);
    setUnit(calculatorCoin(next)?.unit ?? unit);
    setReward(null);
    setDifficultyText('');
  };

  const rows = result ? PERIODS.map((period) => ({ period, ...result[period] })) : [];
  const columns: Column<{ period: (typeof PERIODS)[number] } & Earnings>[] = [
    { key: 'period', header: t('calculator.period'), render: (row) => t(`calculator.${row.period}`) },
    {
      key: 'coins',
      header: t('calculator.coins'),
      align: 'end',
      render: (row) => (
        <Ltr
          mono={false}
        >{`${formatNumber(row.coins, undefined, { maximumSignificantDigits: 6 })} ${coin}`}</Ltr>
      ),
    },
    {
      key: 'value',
      header: t('calculator.value'),
      align: 'end',
      render: (row) => (price ? formatNumber(row.value, undefined, { maximumFractionDigits: 2 }) : '—'),
    },
  ];
  return (
    <div className="container page">
      <header className="page__header">
        <h1>{t('calculator.title')}</h1>
        <p className="page__lead">{t('calculator.lead')}</p>
      </header>
      {stats.data && !live ? (
        <p className="banner banner--info" role="status">
          {t('calculator.notLive', { coin: t(`coins.${coin}`) })}
        </p>
      ) : null}
      <div className="calc">
        <form className="card" onSubmit={(event) => event.preventDefault()}>
          <Select<CalcCoin>
            label={t('calculator.coin')}
            value={coin}
            options={CALCULATOR_COINS.map(({ coin: c }) => c).map((c) => ({
              value: c,
              label: t(`coins.${c}`),
            }))}
            onChange={chooseCoin}
          />
          <div className="calc__pair">
            <TextField
              label={t('calculator.hashrate')}
              inputMode="decimal"
              ltr
              value={hashrate}
              onChange={setHashrate}
            />
            <Select<HashrateUnit>
              label={t('calculator.unit')}
              value={unit}
              options={(Object.keys(HASHRATE_UNITS) as HashrateUnit[]).map((u) => ({ value: u, label: u }))}
              onChange={setUnit}
            />
          </div>
          <TextField
            label={t('calculator.difficulty')}
            inputMode="decimal"
            ltr
            value={difficultyText}
            onChange={setDifficultyText}
            placeholder={
              liveDifficulty === null ? '' : (formatTiny(liveDifficulty) ?? String(liveDifficulty))
            }
            hint={
              liveDifficulty === null
                ? t('calculator.difficultyManual')
                : t('calculator.difficultyLive', { value: formatDifficulty(liveDifficulty) })
            }
          />
          <TextField
            label={t('calculator.blockReward')}
            hint={t('calculator.blockRewardHint')}
            inputMode="decimal"
            ltr
            value={reward}
            onChange={setReward}
          />
          <TextField
            label={t('calculator.fee')}
            inputMode="decimal"
            ltr
            value={feeText}
            onChange={setFeeText}
            placeholder={String(live?.fee ?? 1)}
          />
          <TextField
            label={t('calculator.price')}
            hint={t('calculator.priceHint')}
            inputMode="decimal"
            ltr
            value={price}
            onChange={setPrice}
          />
        </form>
        <section className="card" aria-labelledby="calc-results" aria-live="polite">
          <h2 id="calc-results">{t('calculator.results')}</h2>
          {result ? (
            <Table
              caption={t('calculator.results')}
              columns={columns}
              rows={rows}
              rowKey={(row) => row.period}
            />
          ) : (
            <p className="muted">{t('calculator.invalid')}</p>
          )}
          <p className="muted calc__formula">{t(calculatorCoin(coin)?.formulaKey ?? 'calculator.formula')}</p>
        </section>
      </div>
    </div>
  );
}
