import { ALGORITHM_PAGE_IDS, type AlgorithmPageId } from '@manjam/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

type FooterKey =
  | 'footer.links.home'
  | 'footer.links.marketplace'
  | 'footer.links.about'
  | 'footer.links.stats'
  | 'footer.links.wallet'
  | `footer.links.${AlgorithmPageId}`
  | 'footer.links.calculator'
  | 'footer.links.help'
  | 'footer.links.faq'
  | 'footer.links.blog'
  | 'footer.links.learn'
  | 'footer.links.downloads'
  | 'footer.links.support';

interface FooterLink {
  to: string;
  key: FooterKey;
  newTab?: boolean;
}

const QUICK: FooterLink[] = [
  { to: '/', key: 'footer.links.home' },
  { to: '/about', key: 'footer.links.about' },
  { to: '/marketplace', key: 'footer.links.marketplace' },
  { to: '/stats', key: 'footer.links.stats' },
  { to: '/wallet', key: 'footer.links.wallet' },
];
/** Each algorithm page (the port table's `page`, in its order), then the calculator. */
const MINING: FooterLink[] = [
  ...ALGORITHM_PAGE_IDS.map((id): FooterLink => ({ to: `/mining/${id}`, key: `footer.links.${id}` })),
  { to: '/mining/calculator', key: 'footer.links.calculator' },
];
const RESOURCES: FooterLink[] = [
  { to: '/help', key: 'footer.links.help' },
  { to: '/faq', key: 'footer.links.faq' },
  { to: '/learn', key: 'footer.links.learn' },
  { to: '/blog', key: 'footer.links.blog' },
  { to: '/downloads', key: 'footer.links.downloads', newTab: true },
];

function LinkColumn({ title, links }: { title: string; links: FooterLink[] }) {
  const { t } = useTranslation();
  return (
    <div className="footer__col">
      <h2 className="footer__heading">{title}</h2>
      <ul>
        {links.map((link) => (
          <li key={link.to}>
            {link.newTab ? (
              <a href={link.to} target="_blank" rel="noopener">
                {t(link.key)}
                <span className="visually-hidden"> {t('footer.newTab')}</span>
              </a>
            ) : (
              <Link to={link.to}>{t(link.key)}</Link>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="footer">
      <div className="footer__grid">
        <div className="footer__col footer__brand">
          <p className="footer__brand-name">
            {t('brand.name')} <span lang={t('brand.nativeLang')}>{t('brand.nameNative')}</span>
          </p>
          <p>{t('footer.blurb')}</p>
        </div>
        <LinkColumn title={t('footer.quickLinks')} links={QUICK} />
        <LinkColumn title={t('footer.mining')} links={MINING} />
        <div className="footer__col">
          <h2 className="footer__heading">{t('footer.contact')}</h2>
          <p>{t('footer.contactText')}</p>
          <Link to="/support">{t('footer.links.support')}</Link>
        </div>
        <LinkColumn title={t('footer.resources')} links={RESOURCES} />
      </div>
      <div className="footer__bottom">
        <p>{t('footer.copyright', { year: new Date().getFullYear() })}</p>
        <ul className="footer__legal">
          <li>
            <Link to="/terms">{t('footer.terms')}</Link>
          </li>
          <li>
            <Link to="/privacy">{t('footer.privacy')}</Link>
          </li>
          <li>
            <Link to="/cookies">{t('footer.cookies')}</Link>
          </li>
        </ul>
      </div>
    </footer>
  );
}
