import { COINS, type Coin } from '@manjam/protocol/coins';
import { MAX_LIVE_API_TOKENS, MAX_LIVE_WATCH_LINKS, type Language } from './tables.js';

/** The key of the message a refused payout address of a mined coin gets: `<coin>AddressInvalid`. */
export function addressInvalidKey<C extends Coin>(coin: C): `${Lowercase<C>}AddressInvalid` {
  return `${coin.toLowerCase() as Lowercase<C>}AddressInvalid`;
}

/** Every mined coin's refused-address message, named by the coin (English, then Arabic). */
const ADDRESS_INVALID = Object.fromEntries(
  COINS.map((coin) => [addressInvalidKey(coin), `Please enter a valid ${coin} address`]),
) as { [C in Coin as `${Lowercase<C>}AddressInvalid`]: `Please enter a valid ${C} address` };
const ADDRESS_INVALID_AR = Object.fromEntries(
  COINS.map((coin) => [addressInvalidKey(coin), `يرجى إدخال عنوان ${coin} صالح`]),
) as Record<keyof typeof ADDRESS_INVALID, string>;

/**
 * Validation and error messages: the English catalog (schemas carry its text) and the Arabic one
 * (MESSAGES_AR, typed to have every key); `translateMessage` gives the Arabic text for a message.
 */
export const MESSAGES = {
  usernameRequired: 'Username is required',
  usernameMin: 'Username must be at least 3 characters',
  usernameMax: 'Username must be at most 32 characters',
  usernameChars: 'Username may contain only Latin letters (A-Z), digits, dashes and underscores',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email',
  passwordRequired: 'Password is required',
  passwordMin: 'Password must be at least 8 characters',
  passwordMax: 'Password must be at most 256 characters',
  passwordsMismatch: 'Passwords do not match',
  ...ADDRESS_INVALID,
  addressInvalid: 'Please enter a valid wallet address',
  coinInvalid: 'Please choose a supported coin',
  payoutThresholdOutOfRange: 'Choose a payout threshold within the range shown for this coin',
  minerNameRequired: 'Miner Name is required',
  workerNameRequired: 'Please enter a worker name',
  nameRequired: 'Name is required',
  searchRequired: 'Please enter a wallet address',
  codeInvalid: 'Enter the 6-digit code from your authenticator app',
  tokenRequired: 'A rig-management API token is required',
  invalidValue: 'Invalid value',
  timeZoneInvalid: 'Choose a time zone from the list',
  textTooLong: 'This text is too long',
  expectedText: 'Must be text',
  expectedNumber: 'Must be a number',
  expectedBoolean: 'Must be true or false',
  loginFailed: 'Login failed. Please check your credentials.',
  registrationFailed: 'Registration failed. Please try again.',
  usernameTaken: 'This username is already taken',
  emailTaken: 'An account with this email already exists',
  tooManyAttempts: 'Too many failed sign-in attempts from here. Wait a little and try again.',
  confirmationInvalid: 'This confirmation link is not valid any more. Register again to get a new one.',
  emailNotConfigured:
    'This pool sends no email (its operator has not set up SMTP), so email alerts cannot be turned on.',
  passwordResetUnavailable:
    'This pool sends no email, so a password cannot be reset by email. Contact the pool operator.',
  resetLinkInvalid: 'This password reset link is not valid any more. Ask for a new one.',
  totpRequired: 'Enter the code from your authenticator app',
  totpInvalid: 'That code is not valid. Try the current code from your authenticator app.',
  totpNotSetUp: 'Set up two-factor authentication first',
  totpAlreadyOn: 'Two-factor authentication is already on',
  wrongPassword: 'The current password is not correct',
  unauthorized: 'Please log in to continue',
  sessionIdle: 'You were logged out after 30 minutes of inactivity (Auto Logout). Please log in again.',
  metricsTokenRequired: 'Send the metrics bearer token',
  metricsLocalOnly: 'Metrics are served to this host only',
  notFound: 'Not found',
  minerNotFound: 'Miner not found',
  workerNotFound: 'Worker not found',
  routeNotFound: 'This API route does not exist',
  invalidJson: 'The request body is not valid JSON',
  controlCharacter: 'The request contains a control character (such as a NUL byte). Remove it and try again.',
  payloadTooLarge: 'The request body is too large',
  unsupportedMediaType: 'Send the request body as JSON',
  validationFailed: 'Some fields are not valid',
  rateLimited: 'Too many requests. Please wait a moment and try again.',
  searchFailed: 'Error fetching miner data. Please try again.',
  rigTokenMissing: 'Save a rig-management API token in Settings first',
  rigUnavailable: 'The rig-management service did not answer. Please try again.',
  unavailable: 'The service is temporarily unavailable',
  internal: 'Something went wrong on our side. Please try again.',
  operatorTotpRequired:
    'The operator console needs a sign-in with your password and two-factor code: turn on 2FA, then sign in again',
  payoutRunNotHeld:
    'Only a held payout run (intent), or a sent one whose transaction is missing, can be settled by hand; this one has moved on',
  txidInvalid: 'Enter the transaction id: 64 hexadecimal digits',
  ipInvalid: 'Enter the banned address',
  operatorAccountNotFound: 'No account has this email',
  blockNotReturned:
    'Only a block whose credits were reversed and that is back on the main chain (its block-returned alert open) can be credited back',
  blockAlreadyRecredited: 'This block was credited back once already',
  readOnlyToken:
    'A read-only API token can read only the endpoints listed in the API docs; sign in to change anything',
  apiTokenNotFound: 'API token not found',
  apiTokenLimit: `This account already has ${MAX_LIVE_API_TOKENS} live API tokens. Revoke one you no longer use, then create the new one.`,
  watchLinkLimit: `This account already has ${MAX_LIVE_WATCH_LINKS} live watcher links. Revoke one you no longer use, then create the new one.`,
  watchLinkNotFound: 'This watcher link does not exist, has expired or was revoked',
  watchCoinsRequired: 'Choose at least one coin',
  watchPagesRequired: 'Choose at least one page',
  expiryOutOfRange: 'Choose an expiry between 1 and 365 days, or none',
  webhookRefused:
    'This webhook URL cannot be used: it must start with https:// and its host must resolve to public addresses only',
  webhookUnresolved: 'The host name of this URL could not be found. Check that it is spelled correctly.',
  pushEndpointRefused:
    'This browser push endpoint cannot be used: it must be an https URL whose host resolves to public addresses only',
  alertThresholdOutOfRange: 'Choose a value within the range shown',
  recoveryCodesNeedTotp: 'Turn on two-factor authentication first',
} as const;
export type MessageKey = keyof typeof MESSAGES;
export type MessageText = (typeof MESSAGES)[MessageKey];

export const MESSAGES_AR: Record<MessageKey, string> = {
  usernameRequired: 'اسم المستخدم مطلوب',
  usernameMin: 'يجب أن يتكون اسم المستخدم من 3 أحرف على الأقل',
  usernameMax: 'يجب ألا يزيد اسم المستخدم على 32 حرفًا',
  usernameChars: 'يمكن أن يحتوي اسم المستخدم على أحرف لاتينية (A-Z) وأرقام وشرطات وشرطات سفلية فقط',
  emailRequired: 'البريد الإلكتروني مطلوب',
  emailInvalid: 'يرجى إدخال بريد إلكتروني صالح',
  passwordRequired: 'كلمة المرور مطلوبة',
  passwordMin: 'يجب أن تتكون كلمة المرور من 8 أحرف على الأقل',
  passwordMax: 'يجب ألا تزيد كلمة المرور على 256 حرفًا',
  passwordsMismatch: 'كلمتا المرور غير متطابقتين',
  ...ADDRESS_INVALID_AR,
  addressInvalid: 'يرجى إدخال عنوان محفظة صالح',
  coinInvalid: 'يرجى اختيار عملة مدعومة',
  payoutThresholdOutOfRange: 'اختر حدًّا للدفع ضمن النطاق المبيَّن لهذه العملة',
  minerNameRequired: 'اسم المُعدِّن مطلوب',
  workerNameRequired: 'يرجى إدخال اسم العامل',
  nameRequired: 'الاسم مطلوب',
  searchRequired: 'يرجى إدخال عنوان محفظة',
  codeInvalid: 'أدخل الرمز المكون من 6 أرقام من تطبيق المصادقة',
  tokenRequired: 'رمز واجهة إدارة المنصات مطلوب',
  invalidValue: 'قيمة غير صالحة',
  timeZoneInvalid: 'اختر منطقة زمنية من القائمة',
  textTooLong: 'هذا النص طويل جدًا',
  expectedText: 'يجب أن تكون القيمة نصًا',
  expectedNumber: 'يجب أن تكون القيمة رقمًا',
  expectedBoolean: 'يجب أن تكون القيمة صحيحة أو خاطئة',
  loginFailed: 'فشل تسجيل الدخول. يرجى التحقق من بياناتك.',
  registrationFailed: 'فشل التسجيل. يرجى المحاولة مرة أخرى.',
  usernameTaken: 'اسم المستخدم هذا مستخدم بالفعل',
  emailTaken: 'يوجد حساب بهذا البريد الإلكتروني بالفعل',
  tooManyAttempts: 'محاولات دخول فاشلة كثيرة من هنا. انتظر قليلًا ثم حاول مرة أخرى.',
  confirmationInvalid: 'رابط التأكيد هذا لم يعد صالحًا. سجّل مرة أخرى لتحصل على رابط جديد.',
  emailNotConfigured:
    'هذا المجمع لا يرسل بريدًا إلكترونيًا (لم يُعِدّ المشغّل خادم SMTP)، لذا لا يمكن تفعيل تنبيهات البريد الإلكتروني.',
  passwordResetUnavailable:
    'هذا المجمع لا يرسل بريدًا إلكترونيًا، لذا لا يمكن إعادة تعيين كلمة المرور عبر البريد. تواصل مع مشغّل المجمع.',
  resetLinkInvalid: 'رابط إعادة تعيين كلمة المرور هذا لم يعد صالحًا. اطلب رابطًا جديدًا.',
  totpRequired: 'أدخل الرمز من تطبيق المصادقة',
  totpInvalid: 'هذا الرمز غير صالح. استخدم الرمز الحالي من تطبيق المصادقة.',
  totpNotSetUp: 'قم بإعداد المصادقة الثنائية أولًا',
  totpAlreadyOn: 'المصادقة الثنائية مفعّلة بالفعل',
  wrongPassword: 'كلمة المرور الحالية غير صحيحة',
  unauthorized: 'يرجى تسجيل الدخول للمتابعة',
  sessionIdle: 'تم تسجيل خروجك بعد 30 دقيقة من عدم النشاط (تسجيل الخروج التلقائي). يرجى تسجيل الدخول مجددًا.',
  metricsTokenRequired: 'أرسل رمز المقاييس',
  metricsLocalOnly: 'تُعرض المقاييس لهذا الخادم فقط',
  notFound: 'غير موجود',
  minerNotFound: 'المُعدِّن غير موجود',
  workerNotFound: 'العامل غير موجود',
  routeNotFound: 'مسار الواجهة هذا غير موجود',
  invalidJson: 'نص الطلب ليس JSON صالحًا',
  controlCharacter: 'يحتوي الطلب على محرف تحكّم (مثل البايت الصفري NUL). احذفه ثم حاول مجددًا.',
  payloadTooLarge: 'نص الطلب كبير جدًا',
  unsupportedMediaType: 'أرسل نص الطلب بصيغة JSON',
  validationFailed: 'بعض الحقول غير صالحة',
  rateLimited: 'طلبات كثيرة جدًا. يرجى الانتظار قليلًا ثم المحاولة مرة أخرى.',
  searchFailed: 'خطأ في جلب بيانات المُعدِّن. يرجى المحاولة مرة أخرى.',
  rigTokenMissing: 'احفظ رمز واجهة إدارة المنصات في الإعدادات أولًا',
  rigUnavailable: 'لم تستجب خدمة إدارة المنصات. يرجى المحاولة مرة أخرى.',
  unavailable: 'الخدمة غير متاحة مؤقتًا',
  internal: 'حدث خطأ من جهتنا. يرجى المحاولة مرة أخرى.',
  operatorTotpRequired:
    'تتطلب لوحة المشغّل تسجيل الدخول بكلمة المرور ورمز التحقق الثنائي: فعّل التحقق الثنائي ثم سجّل الدخول من جديد',
  payoutRunNotHeld:
    'لا تُسوّى يدويًا إلا دفعة معلّقة (intent) أو دفعة مُرسلة فُقدت معاملتها؛ هذه الدفعة تجاوزت تلك الحالة',
  txidInvalid: 'أدخل معرّف المعاملة: 64 رقمًا ست عشريًا',
  ipInvalid: 'أدخل العنوان المحظور',
  operatorAccountNotFound: 'لا يوجد حساب بهذا البريد الإلكتروني',
  blockNotReturned:
    'لا يُعاد القيد إلا لكتلة عُكست أرصدتها ثم عادت إلى السلسلة الرئيسية (تنبيه عودة الكتلة مفتوح)',
  blockAlreadyRecredited: 'أُعيد قيد هذه الكتلة مرة من قبل',
  readOnlyToken:
    'رمز الواجهة البرمجية للقراءة فقط لا يقرأ إلا النقاط المذكورة في توثيق الواجهة؛ سجّل الدخول لتغيير أي شيء',
  apiTokenNotFound: 'رمز الواجهة البرمجية غير موجود',
  apiTokenLimit: `لدى هذا الحساب ${MAX_LIVE_API_TOKENS} رمزًا فعّالًا للواجهة البرمجية. ألغِ رمزًا لم تعد تستخدمه ثم أنشئ الجديد.`,
  watchLinkLimit: `لدى هذا الحساب ${MAX_LIVE_WATCH_LINKS} رابط متابعة فعّالًا. ألغِ رابطًا لم تعد تستخدمه ثم أنشئ الجديد.`,
  watchLinkNotFound: 'رابط المتابعة هذا غير موجود أو انتهت صلاحيته أو أُلغي',
  watchCoinsRequired: 'اختر عملة واحدة على الأقل',
  watchPagesRequired: 'اختر صفحة واحدة على الأقل',
  expiryOutOfRange: 'اختر مدة صلاحية بين يوم و365 يومًا، أو بلا انتهاء',
  webhookRefused:
    'لا يمكن استخدام رابط الويب هوك هذا: يجب أن يبدأ بـ https:// وأن يشير مضيفه إلى عناوين عامة فقط',
  webhookUnresolved: 'تعذّر العثور على اسم المضيف في هذا الرابط. تحقّق من كتابته بشكل صحيح.',
  pushEndpointRefused:
    'لا يمكن استخدام عنوان الإشعارات هذا للمتصفح: يجب أن يكون رابط https يشير مضيفه إلى عناوين عامة فقط',
  alertThresholdOutOfRange: 'اختر قيمة ضمن النطاق المعروض',
  recoveryCodesNeedTotp: 'فعّل المصادقة الثنائية أولًا',
};

const byEnglish = new Map<string, MessageKey>(
  Object.entries(MESSAGES).map(([key, text]) => [text, key as MessageKey]),
);

/** The message in the given language; unknown messages are returned unchanged. */
export function translateMessage(message: string, language: Language): string {
  if (language === 'en') return message;
  const key = byEnglish.get(message);
  return key ? MESSAGES_AR[key] : message;
}

/** 'ar' when the Accept-Language header prefers Arabic, else 'en'. */
export function languageFromHeader(header: string | undefined): Language {
  if (!header) return 'en';
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag, q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.tag && Number.isFinite(entry.q) && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const entry of ranked) {
    if (entry.tag === 'ar' || entry.tag.startsWith('ar-')) return 'ar';
    if (entry.tag === 'en' || entry.tag.startsWith('en-')) return 'en';
  }
  return 'en';
}
