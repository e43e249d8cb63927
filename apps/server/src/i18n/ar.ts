// Arabic server text: every key of en.ts (catalog.test.ts checks it), with Arabic's six CLDR
// plural forms where a count is shown (zero, one, two, few 3-10, many 11-99, other).
import type { Catalog } from './types.js';

export const AR: Catalog = {
  'duration.lessThanMinute': 'أقل من دقيقة',
  'duration.minutes': {
    zero: '{count} دقيقة',
    one: 'دقيقة واحدة',
    two: 'دقيقتان',
    few: '{count} دقائق',
    many: '{count} دقيقة',
    other: '{count} دقيقة',
  },
  'duration.hours': {
    zero: '{count} ساعة',
    one: 'ساعة واحدة',
    two: 'ساعتان',
    few: '{count} ساعات',
    many: '{count} ساعة',
    other: '{count} ساعة',
  },
  'duration.days': {
    zero: '{count} يوم',
    one: 'يوم واحد',
    two: 'يومان',
    few: '{count} أيام',
    many: '{count} يومًا',
    other: '{count} يوم',
  },
  'payout.every': {
    zero: 'كل {count} ساعة',
    one: 'كل ساعة',
    two: 'كل ساعتين',
    few: 'كل {count} ساعات',
    many: 'كل {count} ساعة',
    other: 'كل {count} ساعة',
  },

  'alert.workerOffline.title': 'العامل {worker} غير متصل',
  'alert.workerOffline.body':
    'لم يرسل العامل {worker} ({coin}) أي حصة مقبولة منذ {duration}. آخر حصة: {lastShareAt}. تحقق من الكهرباء والشبكة وإعدادات المجمع.',
  'alert.workerRecovered.title': 'عاد العامل {worker} إلى العمل',
  'alert.workerRecovered.body':
    'العامل {worker} ({coin}) يرسل الحصص مجدداً منذ {backSince}، بعد انقطاع دام نحو {duration}.',
  'alert.hashrateDrop.title': 'انخفض معدل التجزئة للعامل {worker}',
  'alert.hashrateDrop.body':
    'العامل {worker} ({coin}) يعمل بمعدل {current}، أي أقل من {percent}% من متوسطه خلال 24 ساعة البالغ {average}.',
  'alert.blockFound.title': 'تم العثور على الكتلة {height}',
  'alert.blockFound.body':
    'عثر المجمع على كتلة {coin} رقم {height} ({hash}){mine}. تُضاف المكافأة عند نضج الكتلة.',
  'alert.blockFound.mine': ' بحصة من أحد عمالك',
  'alert.blocksFound.title': {
    zero: 'كتل {coin} أخرى عُثر عليها: {count}',
    one: 'كتلة {coin} أخرى عُثر عليها',
    two: 'كتلتا {coin} أخريان عُثر عليهما',
    few: 'كتل {coin} أخرى عُثر عليها: {count}',
    many: 'كتل {coin} أخرى عُثر عليها: {count}',
    other: 'كتل {coin} أخرى عُثر عليها: {count}',
  },
  'alert.blocksFound.body': {
    zero: 'بين {from} و{to} عثر المجمع على كتل {coin} أخرى عددها {count} (الارتفاعات من {fromHeight} إلى {toHeight}){mine}. تُضاف المكافآت عند نضج الكتل.',
    one: 'بين {from} و{to} عثر المجمع على كتلة {coin} أخرى (الارتفاع {fromHeight}){mine}. تُضاف المكافأة عند نضج الكتلة.',
    two: 'بين {from} و{to} عثر المجمع على كتلتي {coin} أخريين (الارتفاعان {fromHeight} و{toHeight}){mine}. تُضاف المكافآت عند نضج الكتل.',
    few: 'بين {from} و{to} عثر المجمع على كتل {coin} أخرى عددها {count} (الارتفاعات من {fromHeight} إلى {toHeight}){mine}. تُضاف المكافآت عند نضج الكتل.',
    many: 'بين {from} و{to} عثر المجمع على كتل {coin} أخرى عددها {count} (الارتفاعات من {fromHeight} إلى {toHeight}){mine}. تُضاف المكافآت عند نضج الكتل.',
    other:
      'بين {from} و{to} عثر المجمع على كتل {coin} أخرى عددها {count} (الارتفاعات من {fromHeight} إلى {toHeight}){mine}. تُضاف المكافآت عند نضج الكتل.',
  },
  'alert.blocksFound.mine': '، بعضها بحصص من عمالك',
  'alert.payoutSent.title': 'تم إرسال دفعة بقيمة {amount}',
  'alert.payoutSent.body': 'أُرسل مبلغ {amount} إلى {address}. المعاملة: {txid}.',
  'alert.webhookTest.title': 'اختبار رابط الويب هوك من منجم',
  'alert.webhookTest.body': 'رابط الويب هوك لتنبيهات منجم يعمل: ستصل تنبيهات العمّال والدفعات إلى هنا.',
  'email.brand': 'منجم',
  'email.footer': 'تصلك هذه الرسالة لأن تنبيهات البريد الإلكتروني مفعّلة في إعدادات منجم.',

  'assistant.fallback': 'لم أتمكن من تحديد سؤالك بالضبط. هل يمكنك تحديد عملة أو نوع جهاز التعدين؟',
  'assistant.signIn': 'سجّل الدخول لأجيبك من بيانات عمالك ورصيدك الفعلية.',
  'assistant.hardware.asic': 'أجهزة ASIC',
  'assistant.hardware.gpu': 'منصات كروت الشاشة (GPU)',
  'assistant.hardware.cpu': 'المعالجات (CPU)',
  'assistant.fee': ' الرسوم {percent}% والدفعات {every}.',
  'assistant.port.live': '{url} (يعمل الآن)',
  'assistant.port.notLive': 'المنفذ {port} (غير مفعّل بعد؛ المنافذ العاملة الآن: {live})',
  'assistant.algorithm': '{coin} تستخدم خوارزمية {algorithm}: {ports}. تُعدَّن عادةً بواسطة {hardware}.{fee}',
  'assistant.port': 'منفذ {coin} ({algorithm}): {ports}.',
  'assistant.example.account': 'اسم_الحساب',
  'assistant.example.username': 'اسم_الحساب',
  'assistant.setup.notLive': ' (عندما يُفعَّل المنفذ)',
  'assistant.setup.gpu':
    'إعداد GPU{notLive}: في برنامج التعدين ضع رابط المجمع {url}، واسم المستخدم هو عنوان محفظتك (أو {user})، وكلمة المرور x.',
  'assistant.setup.asic':
    'إعداد ASIC{notLive}: افتح صفحة إعدادات الجهاز، وفي خانة المجمع ضع الرابط {url}، واسم العامل {user}، أو عنوان محفظتك متبوعاً بـ .worker1، وكلمة المرور x.',
  'assistant.profit':
    'لتقدير الربحية (العائد على الاستثمار) أدخل معدل التجزئة واستهلاك الطاقة وسعر الكهرباء في: {links} ، أو استخدم حاسبة منجم: {calculator}',
  'assistant.hardware':
    'أجهزة ASIC مصممة لخوارزمية واحدة (مثل SHA-256 للبيتكوين وScrypt للايتكوين) وهي الأكفأ لها. كروت الشاشة (GPU) تناسب خوارزميات مثل KawPow وEtchash وAutolykos-v2، والمعالجات (CPU) تناسب RandomX (مونيرو). المنافذ العاملة في منجم الآن: {live}.',
  'assistant.start':
    'للبدء: 1) أنشئ حساباً. 2) اختر اسم عامل بالصيغة {user}. 3) اضبط جهازك أو برنامج التعدين. 4) أدخل بيانات المجمع: {url}، المستخدم {user}، كلمة المرور x. 5) تابع العمّال والأرباح من لوحة التحكم. المنافذ العاملة: {live}.',
  'assistant.about':
    'منجم مجمع تعدين لمنطقة الشرق الأوسط وشمال أفريقيا. الخوارزميات العاملة: {live}. الرسوم: {fees}. نظام الدفع {scheme}، والدفعات {every} عند بلوغ رصيد كل عملة حدَّ الدفع الخاص بها، وتختاره لكل عملة في الإعدادات ← المحفظة: {thresholds}.',

  'assistant.hashrate.coin':
    '{coin} ({algorithm}): {now} خلال آخر 10 دقائق، ومتوسط 24 ساعة {day}؛ العمّال المتصلون {online} من {workers}',
  'assistant.hashrate.workers': '{count}',
  'assistant.hashrate': 'معدل التجزئة لديك — {parts}.',
  'assistant.hashrate.window':
    'لماذا يظهر الجهاز هنا أبطأ مما يعرضه برنامج التعدين: يحسب المجمع معدل التجزئة من حصصك المقبولة، لا مما يبلّغ عنه البرنامج. الرقم الرئيسي يغطي آخر 10 دقائق (وللعامل الذي بدأ قبل أقل من 10 دقائق: المدة التي عدّن فيها)، والحصص تصل عشوائيًا، فيتأرجح الرقم خلال دقائق قليلة بنسبة 20 % أو أكثر؛ أما رقما الساعة والـ 24 ساعة فأثبت. الحصص المرفوضة والمتأخرة لا تُحتسب، بينما يحسب البرنامج كل تجزئة. إن بقي رقم الساعة أقل بكثير من متوسط البرنامج، فراجع الحصص المرفوضة وسجل البرنامج.',
  'assistant.noWorkers':
    'لا يوجد لديك عمّال بعد. وجّه جهازك إلى المجمع باسم مستخدم بالصيغة account.worker وسيظهر العامل عند أول حصة مقبولة.',
  'assistant.worker.unknown': 'لم أجد عاملاً باسم {asked}. عمالك: {known}.',
  'assistant.worker.offlineList':
    'العمّال غير المتصلين: {list}. الأسباب المعتادة: انقطاع الكهرباء أو الإنترنت، أو خطأ في رابط المجمع أو اسم المستخدم، أو توقف برنامج التعدين؛ اذكر اسم العامل لأشرح السبب.',
  'assistant.worker.allOnline': 'كل عمالك متصلون: {list}. اذكر اسم أحدهم لأعرض تفاصيله.',
  'assistant.worker.online':
    'العامل {worker} متصل: آخر حصة مقبولة قبل {ago}، معدل التجزئة {hashrate}، والمرفوض {rejects}% خلال الساعة الأخيرة.',
  'assistant.worker.lastShare': 'آخر حصة مقبولة منه كانت {time} (قبل {ago})',
  'assistant.worker.noShare': 'لم يرسل أي حصة مقبولة بعد',
  'assistant.worker.rejects': ' ونسبة المرفوض {percent}% قبل انقطاعه، فتحقق من الخوارزمية والمنفذ.',
  'assistant.worker.offline':
    'العامل {worker} غير متصل: {since}.{rejects} تحقق من الكهرباء والإنترنت، ومن أن الجهاز يستخدم {url} باسم المستخدم {user} وكلمة المرور x، ثم راجع سجل برنامج التعدين.',
  'assistant.none': 'لا يوجد',
  'assistant.payout.due': 'الآن (الجولة مستحقة)',
  'assistant.payout.reached': 'رصيدك {balance} بلغ حدّك {limit}، فسيُدفع في الجولة القادمة',
  'assistant.payout.below': 'رصيدك {balance} أقل من حدّك {limit}؛ تحتاج {missing} إضافية',
  'assistant.payout': '{coin}: جولة الدفع القادمة {next} ({every})؛ {state}.',
  'assistant.earnings.immature': 'وستضيف الكتل التي وُجدت ولم تنضج بعد {immature} عند نضجها.',
  'assistant.payout.noAddress':
    'لم تحدد عنوان دفع بعد، فلا يمكن دفع أي مبلغ لك: رصيدك غير المدفوع ({balances}) يبقى في المجمع حتى تحدده. حدده من الإعدادات ← المحفظة، في صف كل عملة تعدّنها ({settings})؛ بعدها تُدفع الجولات {every} عند بلوغ رصيدك حدّك {limit}.',
  'assistant.setup.cpu':
    'إعداد المعالج (CPU){notLive}: عدّن {algorithm} ببرنامج XMRig: ضع رابط المجمع {url}، واسم المستخدم {user}، وكلمة المرور x (xmrig -o {url} -u {user} -p x). صعوبة RandomX تُعدّ بالتجزئات: لصعوبة ابتدائية أخرى ضع d= في كلمة المرور، مثلاً x,d=15000 لمعالج يقارب 1 kH/s. الأرباح بعملة XMR، وتُدفع إلى عنوان مونيرو المحدد في الإعدادات ← المحفظة (العنوان العادي يبدأ بالرقم 4، والعنوان الفرعي بالرقم 8). التفاصيل: /mining/randomx.',
  'assistant.setup.cpuNotLive':
    'خوارزمية {algorithm} ({coin}) غير مفعّلة في منجم بعد: المنفذ {port} لا يقبل الحصص، فلا يمكن للمعالج أن يربح هنا اليوم. المنافذ العاملة الآن (لأجهزة ASIC): {live}.',
  'assistant.power.device':
    'جهاز {device} ({hashrate}، {algorithm}) يستهلك نحو {watts} واط: {kwhDay} كيلوواط ساعة في اليوم، ونحو {kwhMonth} كيلوواط ساعة في 30 يوماً. تكلفة الكهرباء اليومية = {kwhDay} × سعر الكيلوواط ساعة لديك. قارنها بالأرباح المتوقعة في الحاسبة ({calculator}).',
  'assistant.power.generic':
    'تكلفة الكهرباء اليومية = الواط × 24 ÷ 1000 × سعر الكيلوواط ساعة لديك (جهاز 3250 واط يستهلك 78 كيلوواط ساعة يومياً). اذكر طراز جهازك (مثل Antminer S19) لأحسبها لك، ثم قارن التكلفة بالأرباح المتوقعة في الحاسبة ({calculator}).',
  'assistant.earnings': 'ربحت اليوم (منذ 00:00 UTC) {today}، ورصيدك غير المدفوع {balance}.',
  'assistant.thresholds.coin': '{coin} افتراضيًا {default} (من {minimum} إلى {maximum})',
  'assistant.estimate':
    'تقدير لمعدل تجزئة {hashrate} على خوارزمية {algorithm} ({coin}): نحو {daily} في اليوم، و{weekly} في الأسبوع، و{monthly} في 30 يومًا، بصعوبة الشبكة التي يراها المجمّع الآن ({difficulty})، ومكافأة كتلة قدرها {reward} (أحدث كتلة {coin} وجدها المجمّع)، بعد رسوم المجمّع {fee}. يتغيّر التقدير مع الحظ والصعوبة؛ وتحسب الحاسبة في /mining/calculator أي رقم آخر.',
  'assistant.estimate.noDifficulty':
    'لا أستطيع بعد تقدير أرباح {hashrate} على خوارزمية {algorithm} ({coin}): لا يعرف المجمّع صعوبة شبكة {coin} الآن. تحسب الحاسبة في /mining/calculator التقدير بصعوبة ومكافأة كتلة تدخلهما أنت.',
  'assistant.estimate.noBlock':
    'لا أستطيع بعد تقدير أرباح {hashrate} على خوارزمية {algorithm} ({coin}): لم يجد المجمّع أي كتلة {coin} بعد لتؤخذ منها مكافأة الكتلة. تحسب الحاسبة في /mining/calculator التقدير بمكافأة كتلة تدخلها أنت.',
  'account.confirm.subject': 'أكّد حسابك في منجم',
  'account.confirm.body':
    'سجّل أحدهم (نرجو أن تكون أنت) حساب منجم "{username}" بعنوان البريد هذا. لإنشاء الحساب افتح هذا الرابط خلال {hours} ساعة:\n\n{link}\n\nإن لم تكن أنت، فتجاهل هذه الرسالة: لن يُنشأ أي حساب.',
  'account.taken.subject': 'حاول أحدهم التسجيل ببريدك الإلكتروني',
  'account.taken.body':
    'حاول أحدهم تسجيل حساب جديد في منجم بعنوان البريد هذا، وله حساب بالفعل. لم يتغير شيء. إن كنت أنت، فسجّل الدخول من {login}؛ وإن نسيت كلمة المرور فتواصل مع الدعم. وإن لم تكن أنت، فيمكنك تجاهل هذه الرسالة؛ حسابك باقٍ كما هو.',
  'email.confirm.subject': 'أكّد عنوان بريدك الجديد في منجم',
  'email.confirm.body':
    'طلب حساب منجم "{username}" استخدام عنوان البريد هذا من الآن فصاعداً. لإتمام التغيير افتح هذا الرابط خلال {hours} ساعة:\n\n{link}\n\nإن لم تكن أنت، فتجاهل هذه الرسالة: لن يتغير شيء.',
  'email.taken.subject': 'حاول أحدهم نقل حساب في منجم إلى بريدك',
  'email.taken.body':
    'طلب أحدهم نقل حساب آخر في منجم إلى عنوان البريد هذا، وله حساب بالفعل. لم يتغير شيء. إن لم تكن أنت، فيمكنك تجاهل هذه الرسالة؛ حسابك باقٍ كما هو.',
  'email.changed.subject': 'تغيّر عنوان بريدك في منجم',
  'email.changed.body':
    'صار حساب منجم "{username}" يسجّل الدخول بالعنوان {email} بدلاً من هذا العنوان. إن لم تُجرِ هذا التغيير بنفسك، فتواصل مع الدعم فوراً.',
  'password.reset.subject': 'أعد تعيين كلمة مرورك في منجم',
  'password.reset.body':
    'طلب أحدهم (نرجو أن تكون أنت) إعادة تعيين كلمة مرور حساب منجم "{username}". لاختيار كلمة مرور جديدة افتح هذا الرابط خلال {minutes} دقيقة (يعمل مرة واحدة):\n\n{link}\n\nإن لم تكن أنت، فتجاهل هذه الرسالة: تبقى كلمة مرورك كما هي.',
  'password.changed.subject': 'تغيّرت كلمة مرورك في منجم',
  'password.changed.body':
    'أُعيد للتو تعيين كلمة مرور حساب منجم "{username}" برابط أُرسل إلى هذا العنوان، وسُجّل الخروج من كل الجلسات. إن لم تفعل ذلك بنفسك، فأعد تعيين كلمة مرورك فوراً وتواصل مع الدعم.',
};
