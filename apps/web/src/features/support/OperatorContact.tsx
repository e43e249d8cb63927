import { useTranslation } from 'react-i18next';
import { Ltr } from '../../components/Ltr';
import { useAccountHelp } from '../../lib/queries';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The operator's contact as written in the config: a mail link, a web link, or the text itself (a handle). */
export function ContactValue({ contact }: { contact: string }) {
  if (EMAIL.test(contact))
    return (
      <a href={`mailto:${contact}`}>
        <Ltr mono={false}>{contact}</Ltr>
      </a>
    );
  if (/^https:\/\//i.test(contact))
    return (
      <a href={contact} target="_blank" rel="noopener noreferrer">
        <Ltr mono={false}>{contact}</Ltr>
      </a>
    );
  return <Ltr mono={false}>{contact}</Ltr>;
}

/**
 * How to reach the pool operator (config operator.contact): "Contact the pool operator: ...", or
 * that none is published. Nothing while the answer is loading or failed.
 */
export function OperatorContact({ className }: { className?: string }) {
  const { t } = useTranslation();
  const help = useAccountHelp();
  if (!help.data) return null;
  const { contact } = help.data;
  return (
    <p className={className} data-testid="operator-contact">
      {contact ? (
        <>
          {t('support.contactLabel')} <ContactValue contact={contact} />
        </>
      ) : (
        t('support.noContact')
      )}
    </p>
  );
}
