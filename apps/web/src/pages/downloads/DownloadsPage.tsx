import { useTranslation } from 'react-i18next';
import { Table, type Column } from '../../components/Table';
import { Ltr } from '../../components/Ltr';

type Hardware = 'asic' | 'gpu' | 'cpu';
interface Software {
  name: string;
  hardware: Hardware[];
  algorithms: string;
  url: string;
}

/** Official project pages only; Manjam hosts no binaries. */
export const SOFTWARE: readonly Software[] = [
  {
    name: 'CGMiner',
    hardware: ['asic'],
    algorithms: 'SHA-256, Scrypt',
    url: 'https://github.com/ckolivas/cgminer',
  },
  {
    name: 'BFGMiner',
    hardware: ['asic'],
    algorithms: 'SHA-256, Scrypt',
    url: 'https://github.com/luke-jr/bfgminer',
  },
  {
    name: 'lolMiner',
    hardware: ['gpu'],
    algorithms: 'Kaspa (kHeavyHash), Equihash, Etchash',
    url: 'https://github.com/Lolliedieb/lolMiner-releases',
  },
  {
    name: 'BzMiner',
    hardware: ['gpu'],
    algorithms: 'Kaspa (kHeavyHash), Etchash, KawPow',
    url: 'https://www.bzminer.com',
  },
  {
    name: 'SRBMiner-MULTI',
    hardware: ['gpu', 'cpu'],
    algorithms: 'Kaspa (kHeavyHash), RandomX, Etchash',
    url: 'https://www.srbminer.com',
  },
  {
    name: 'Rigel',
    hardware: ['gpu'],
    algorithms: 'Kaspa (kHeavyHash), Etchash, Octopus',
    url: 'https://github.com/rigelminer/rigel',
  },
  { name: 'XMRig', hardware: ['cpu', 'gpu'], algorithms: 'RandomX', url: 'https://xmrig.com' },
  {
    name: 'cpuminer-opt',
    hardware: ['cpu'],
    algorithms: 'SHA-256, Scrypt',
    url: 'https://github.com/JayDDee/cpuminer-opt',
  },
];

export default function DownloadsPage() {
  const { t } = useTranslation();
  const columns: Column<Software>[] = [
    { key: 'name', header: t('downloads.columns.name'), render: (row) => <strong>{row.name}</strong> },
    {
      key: 'hardware',
      header: t('downloads.columns.hardware'),
      render: (row) => row.hardware.map((h) => t(`downloads.hardware.${h}`)).join(' · '),
    },
    {
      key: 'algorithms',
      header: t('downloads.columns.algorithms'),
      render: (row) => <Ltr mono={false}>{row.algorithms}</Ltr>,
    },
    {
      key: 'site',
      header: t('downloads.columns.site'),
      render: (row) => (
        <a href={row.url} target="_blank" rel="noopener noreferrer">
          <Ltr>{row.url.replace(/^https:\/\//, '')}</Ltr>
          <span className="visually-hidden"> {t('footer.newTab')}</span>
        </a>
      ),
    },
  ];
  return (
    <div className="container page">
      <header className="page__header">
        <h1>{t('downloads.title')}</h1>
        <p className="page__lead">{t('downloads.lead')}</p>
      </header>
      <p className="banner banner--info">{t('downloads.asicNote')}</p>
      <Table caption={t('downloads.title')} columns={columns} rows={SOFTWARE} rowKey={(row) => row.name} />
      <p className="muted" style={{ marginBlockStart: 'var(--space-4)' }}>
        {t('downloads.warning')}
      </p>
    </div>
  );
}
