import { PORT_TABLE } from '@manjam/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TextPage, useSections } from '../../components/TextPage';

/** The guide links: each algorithm page whose row the seed publishes (fee, payout, latency), in table order. */
const GUIDES = PORT_TABLE.flatMap((row) =>
  row.page && row.published && row.account
    ? [{ to: `/mining/${row.account}`, key: `footer.links.${row.account}` as const }]
    : [],
);

export default function LearnPage() {
  const { t } = useTranslation();
  return (
    <TextPage title={t('learn.title')} lead={t('learn.lead')} sections={useSections('learn.sections')}>
      <h2>{t('learn.algorithmLinks')}</h2>
      <ul>
        {GUIDES.map((guide) => (
          <li key={guide.to}>
            <Link to={guide.to}>{t(guide.key)}</Link>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/mining/calculator" className="btn btn--primary">
          {t('learn.calculatorLink')}
        </Link>
      </p>
    </TextPage>
  );
}
