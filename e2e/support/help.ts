/// <reference lib="dom" />
// What the floating Mining Help button covers, measured in the page: its box (and the hint
// bubble's, while it shows) against the box of every control a person could want to reach.
import type { Page } from 'playwright-core';

/** Controls a person clicks or types into. */
export const INTERACTIVE =
  'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="tab"], [role="link"], [tabindex]:not([tabindex="-1"])';

export interface HelpView {
  /** The button stands in the viewport, shown, and a click at its centre reaches it. */
  reachable: boolean;
  /**
   * Controls (outside the widget) whose box meets the button's or the hint's box and that the page
   * cannot scroll out from under it: what a person could not reach.
   */
  covered: string[];
  /**
   * Controls the button overlaps here, on a page that scrolls on far enough to bring them above it
   * (at the top of a long page; the page's end keeps room for the button, so at the bottom this is 0).
   */
  scrollClear: number;
  /** Those controls, named as in `covered`. */
  clearable: string[];
  /** How many controls were in view and compared. */
  compared: number;
  hint: boolean;
}

/** Scrolls to the top or the bottom of the page and measures what the help widget covers there. */
export function measureHelp(page: Page, where: 'top' | 'bottom'): Promise<HelpView> {
  return page.evaluate(
    async ({ where, selector }) => {
      window.scrollTo(0, where === 'top' ? 0 : document.documentElement.scrollHeight);
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const widget = document.querySelector('.assistant');
      const fab = document.querySelector<HTMLElement>('.assistant__fab');
      if (!widget || !fab)
        return {
          reachable: false,
          covered: ['no help widget'],
          compared: 0,
          scrollClear: 0,
          clearable: [],
          hint: false,
        };
      const remaining = document.documentElement.scrollHeight - window.innerHeight - window.scrollY;
      const box = fab.getBoundingClientRect();
      const inView =
        box.width > 0 &&
        box.top >= 0 &&
        box.left >= 0 &&
        box.bottom <= window.innerHeight &&
        box.right <= window.innerWidth;
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      const shown =
        getComputedStyle(fab).visibility === 'visible' && getComputedStyle(widget).opacity !== '0';
      const hintElement = document.querySelector('.assistant__hint');
      const own = [box, ...(hintElement ? [hintElement.getBoundingClientRect()] : [])];
      const covered: string[] = [];
      const clearable: string[] = [];
      const named = (element: HTMLElement): string =>
        `${where}: ${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 30)}"`;
      const widgetTop = Math.min(...own.map((o) => o.top));
      let compared = 0;
      let scrollClear = 0;
      for (const element of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
        if (widget.contains(element)) continue;
        // The part of it a person can see: its box within every ancestor that clips (a table
        // scrolling sideways in its own box hides the columns scrolled out of it).
        const whole = element.getBoundingClientRect();
        const rect = { left: whole.left, right: whole.right, top: whole.top, bottom: whole.bottom };
        for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
          const clip = getComputedStyle(up);
          if (clip.overflowX === 'visible' && clip.overflowY === 'visible') continue;
          const bounds = up.getBoundingClientRect();
          rect.left = Math.max(rect.left, bounds.left);
          rect.right = Math.min(rect.right, bounds.right);
          rect.top = Math.max(rect.top, bounds.top);
          rect.bottom = Math.min(rect.bottom, bounds.bottom);
        }
        if (rect.right <= rect.left || rect.bottom <= rect.top) continue;
        if (rect.bottom <= 0 || rect.top >= window.innerHeight) continue;
        const style = getComputedStyle(element);
        if (style.visibility !== 'visible') continue;
        compared += 1;
        const meets = own.some(
          (o) => o.left < rect.right && rect.left < o.right && o.top < rect.bottom && rect.top < o.bottom,
        );
        if (meets && rect.bottom - remaining <= widgetTop) {
          scrollClear += 1;
          clearable.push(named(element));
        } else if (meets) covered.push(named(element));
      }
      return {
        reachable: inView && shown && hit !== null && fab.contains(hit),
        covered,
        compared,
        scrollClear,
        clearable,
        hint: hintElement !== null,
      };
    },
    { where, selector: INTERACTIVE },
  );
}
