// Kaspa's words on the shared server: its setup text for the assistant (an ASIC's web page and
// the GPU miners' own flags; a CPU's plain word before them) and the assistant's words for its row.
import { familyTexts, prefix, word } from '../texts.js';

export const kaspaTexts = familyTexts({
  en: {
    'assistant.setup.kaspa':
      'Kaspa setup{notLive}: on a kHeavyHash ASIC (IceRiver KS0 to KS7, Bitmain Antminer KS3 or KS5) open its web page and under Pools set URL {url}, Worker {user} (or your Kaspa address: kaspa:<address>.worker1), Password x. On a GPU: lolMiner --algo KASPA --pool {hostPort} --user {user} , or bzminer -a kaspa -w {user} -p {url} . The pool sets the share difficulty for each miner itself. Earnings are in KAS, paid to the kaspa: address in Settings → Wallet. Details: /mining/kaspa.',
    'assistant.setup.kaspaCpu':
      'A CPU mines Kaspa at only a few kH/s to a few MH/s, far below a GPU (hundreds of MH/s and more) or a kHeavyHash ASIC (TH/s): its share of the rewards is very small and may not cover the electricity.',
  },
  ar: {
    'assistant.setup.kaspa':
      'إعداد كاسبا{notLive}: في جهاز ASIC لخوارزمية kHeavyHash (آيس ريفر من KS0 إلى KS7، أو بيتمين Antminer KS3 وKS5) افتح صفحة إعدادات الجهاز، وفي خانة المجمع ضع الرابط {url}، واسم العامل {user} (أو عنوان كاسبا الخاص بك: kaspa:<العنوان>.worker1)، وكلمة المرور x. على كرت الشاشة (GPU): lolMiner --algo KASPA --pool {hostPort} --user {user} ، أو bzminer -a kaspa -w {user} -p {url} . يضبط المجمع صعوبة الحصص لكل جهاز بنفسه. الأرباح بعملة KAS، وتُدفع إلى عنوان kaspa: المحدد في الإعدادات ← المحفظة. التفاصيل: /mining/kaspa.',
    'assistant.setup.kaspaCpu':
      'المعالج (CPU) يعدّن كاسبا ببضعة kH/s إلى بضعة MH/s فقط، وهذا أقل بكثير من كرت الشاشة (مئات MH/s فأكثر) أو جهاز ASIC لخوارزمية kHeavyHash (TH/s): نصيبه من المكافآت ضئيل جداً وقد لا يغطي تكلفة الكهرباء.',
  },
  words: {
    kHeavyHash: {
      coin: { en: 'Kaspa', ar: 'كاسبا' },
      en: [word('kas'), word('kheavyhash')],
      ar: [prefix('كاسبا')],
    },
  },
});
