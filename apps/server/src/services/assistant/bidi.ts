// Bidi isolation of left-to-right tokens inside Arabic answers: every unit, hash,
// address, URL, algorithm name or figure ("SHA-256", "100 TH/s", "stratum+tcp://host:3333",
// "0.01 BTC") is wrapped in U+2068 FIRST STRONG ISOLATE ... U+2069 POP DIRECTIONAL ISOLATE, so a
// right-to-left paragraph never reorders its parts ("SHA-256:" read as "-SHA / 256:"). Done here,
// on the server's text, rather than by the web with <bdi>: the answer is plain text wherever it
// goes (the chat panel, a copied message, the language model's draft), and the isolates travel
// with it. The web renders the text as is (white-space: pre-wrap); the marks are invisible.

export const FSI = '\u2068';
export const PDI = '\u2069';

// A run of left-to-right tokens: starts with a Latin letter, a digit or "/" (a path), may hold the characters
// that join such tokens ("-", ".", "/", ":", "+", "_", "@", "%", "=", "?", "&", "#", "~", ","),
// not brackets (they belong to the sentence around),
// and spaces between two such tokens ("100 TH/s", "0.01 BTC"). Arabic letters end a run.
// A token ending in sentence punctuation ("SHA-256:") ends the run: what follows is another phrase.
const LTR_RUN =
  /[A-Za-z0-9/][A-Za-z0-9\-./:+_@%=?&#~,]*(?:(?<![.,:;])[ \u00a0]+[A-Za-z0-9][A-Za-z0-9\-./:+_@%=?&#~,]*)*/g;
// A bare number ("24", "0.5", "30") keeps its place in Arabic text without help: not isolated.
const BARE_NUMBER = /^[\d.,]+%?$/;
// Sentence punctuation that closes a run belongs to the Arabic sentence, not to the token.
const TRAILING = /[.,:;?]+$/;

/** Arabic text with each left-to-right run isolated; text already isolated is left as it is. */
export function isolateLtr(text: string): string {
  if (text.includes(FSI)) return text;
  return text.replace(LTR_RUN, (run) => {
    const trailing = TRAILING.exec(run)?.[0] ?? '';
    const token = run.slice(0, run.length - trailing.length);
    const rest = trailing;
    return token && !BARE_NUMBER.test(token) ? `${FSI}${token}${PDI}${rest}` : run;
  });
}
