import { useTranslation } from 'react-i18next';

interface FaqItem {
  q: string;
  a: string;
}

export default function FaqPage() {
  const { t } = useTranslation();
  const raw: unknown = t('faq.items', { returnObjects: true });
  const items = Array.isArray(raw) ? (raw as FaqItem[]) : [];
  return (
    <article className="container page prose">
      <h1>{t('faq.title')}</h1>
      <div className="faq">
        {items.map((item) => (
          <details key={item.q} className="card faq__item">
            <summary>{item.q}</summary>
            <p>{item.a}</p>
          </details>
        ))}
      </div>
    </article>
  );
}
