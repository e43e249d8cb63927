// Step 3 for Kaspa (kHeavyHash): what each kind of Kaspa miner types. KS ASICs take the pool in
// their web page; GPUs run lolMiner or BzMiner with a copyable command; a CPU is told plainly how
// little it hashes on kHeavyHash.
import { useTranslation } from 'react-i18next';
import { CopyButton, Ltr } from '../../components';
import type { MinersProps } from '../family-screens';
import { kaspaCommands } from './commands';

export function KaspaMiners({ host, port, username, worker }: MinersProps) {
  const { t } = useTranslation();
  const commands = kaspaCommands(host, port, username);
  return (
    <section className="stack kaspa-miners" aria-label={t('setupGuide.kaspa.title')}>
      <p>
        {t('setupGuide.kaspa.asic', {
          username: `\u2066${username}\u2069`,
          address: `\u2066kaspa:<address>.${worker}\u2069`,
        })}
      </p>
      <p>{t('setupGuide.kaspa.gpu')}</p>
      <p className="guide-command">
        <Ltr>{commands.lolminer}</Ltr>
      </p>
      <CopyButton text={commands.lolminer} label={t('setupGuide.kaspa.copyLolminer')} />
      <p className="guide-command">
        <Ltr>{commands.bzminer}</Ltr>
      </p>
      <CopyButton text={commands.bzminer} label={t('setupGuide.kaspa.copyBzminer')} />
      <p className="muted">{t('setupGuide.kaspa.cpu')}</p>
    </section>
  );
}
