/* global window */
// Runs before first paint (a plain script, allowed by the server's script-src 'self' policy):
// set <html lang> and <html dir> from the stored language so Arabic never flashes left-to-right.
(function () {
  try {
    var lang = window.localStorage.getItem('language') === 'ar' ? 'ar' : 'en';
    window.document.documentElement.lang = lang;
    window.document.documentElement.dir = lang === 'ar' ? 'rtl' : 'ltr';
  } catch {
    // Storage unavailable: keep the defaults.
  }
})();
