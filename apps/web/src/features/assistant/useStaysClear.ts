// The floating Mining Help button must never sit on a submit button or on the footer: while, at
// its resting place, it would cover one of them, the widget steps aside (hidden until the page
// scrolls on). The footer leaves room below its last line, so at the end of every page the
// button is back beside, not over, the footer.
import { useEffect, useState, type RefObject } from 'react';

/** What the button must never cover (outside the widget itself). */
export const KEEP_CLEAR =
  'main button[type="submit"], footer a, footer p, footer li, footer h2, footer h3, footer button';

function overlaps(a: DOMRect, b: DOMRect): boolean {
  return (
    a.width > 0 && b.width > 0 && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom
  );
}

/** Whether the widget at `anchor` (its button and hint, measured even while hidden) covers any KEEP_CLEAR element. */
export function coversSomething(anchor: HTMLElement): boolean {
  // A keyboard user on the button keeps it where it is.
  if (anchor.contains(document.activeElement)) return false;
  const own = anchor.getBoundingClientRect();
  for (const element of Array.from(document.querySelectorAll<HTMLElement>(KEEP_CLEAR))) {
    if (anchor.contains(element)) continue;
    if (overlaps(own, element.getBoundingClientRect())) return true;
  }
  return false;
}

/** True while the widget at `ref` would cover a submit button or the footer (checked on scroll, resize and page changes). */
export function useStaysClear(ref: RefObject<HTMLElement | null>, enabled: boolean): boolean {
  const [covering, setCovering] = useState(false);
  useEffect(() => {
    if (!enabled) {
      setCovering(false);
      return;
    }
    let frame = 0;
    const check = (): void => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        const anchor = ref.current;
        setCovering(anchor ? coversSomething(anchor) : false);
      });
    };
    check();
    window.addEventListener('scroll', check, { passive: true, capture: true });
    window.addEventListener('resize', check);
    const observer = typeof MutationObserver === 'undefined' ? null : new MutationObserver(check);
    observer?.observe(document.body, { childList: true, subtree: true });
    return () => {
      if (frame) cancelAnimationFrame(frame);
      window.removeEventListener('scroll', check, { capture: true });
      window.removeEventListener('resize', check);
      observer?.disconnect();
    };
  }, [ref, enabled]);
  return covering;
}
