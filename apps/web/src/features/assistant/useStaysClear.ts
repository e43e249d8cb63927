// The floating Mining Help button must never sit on a submit button or on the footer: while, at
// its resting place, it would cover one of them, the widget steps aside (hidden until the page
// scrolls on). The footer leaves room below its last line, so at the end of every page the
// button is back beside, not over, the footer.
import { useLayoutEffect, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';

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

/**
 * True while the widget at `ref` would cover a submit button or the footer. Decided before the
 * browser paints what moved: on mount and when re-enabled in a layout effect, after a DOM change in
 * the MutationObserver's callback (a microtask after the change), after a layout change (fonts,
 * images) in the ResizeObserver's, on scroll and resize in their events (both run in the frame's
 * rendering steps, before paint), each answer committed at once (flushSync), not in a later task.
 */
export function useStaysClear(ref: RefObject<HTMLElement | null>, enabled: boolean): boolean {
  const [covering, setCovering] = useState(false);
  useLayoutEffect(() => {
    const measure = (): boolean => enabled && ref.current !== null && coversSomething(ref.current);
    setCovering(measure());
    if (!enabled) return;
    const check = (): void => flushSync(() => setCovering(measure()));
    window.addEventListener('scroll', check, { passive: true, capture: true });
    window.addEventListener('resize', check);
    const mutations = typeof MutationObserver === 'undefined' ? null : new MutationObserver(check);
    mutations?.observe(document.body, { childList: true, subtree: true });
    const sizes = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(check);
    sizes?.observe(document.body);
    return () => {
      window.removeEventListener('scroll', check, { capture: true });
      window.removeEventListener('resize', check);
      mutations?.disconnect();
      sizes?.disconnect();
    };
  }, [ref, enabled]);
  return covering;
}
