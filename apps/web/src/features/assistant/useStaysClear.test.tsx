import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { AssistantWidget } from './AssistantWidget';

// jsdom lays nothing out: a small model of the page stands in for the browser's layout. The
// window is 1024 x 768; the page is a heading (80 px), one 100 px row per miner and then the
// footer, whose first line is 40 px into it. Mining Help rests 20 px from the bottom corner.
const ROW = 100;
let scrollY = 0;

function box(left: number, top: number, width: number, height: number): DOMRect {
  const edges = { x: left, y: top, left, top, width, height, right: left + width, bottom: top + height };
  return { ...edges, toJSON: () => edges };
}

function layout(this: HTMLElement): DOMRect {
  if (this.classList.contains('assistant'))
    return box(window.innerWidth - 20 - 72, window.innerHeight - 20 - 72, 72, 72);
  if (this.tagName === 'P' && this.closest('footer')) {
    const rows = document.querySelectorAll('main li').length;
    return box(20, 80 + rows * ROW + 40 - scrollY, window.innerWidth - 40, 24);
  }
  return box(0, 0, 0, 0);
}

function Page({ miners }: { miners: number }) {
  return (
    <>
      <main>
        <ul>
          {Array.from({ length: miners }, (_, i) => (
            <li key={i}>{`miner${i}`}</li>
          ))}
        </ul>
      </main>
      <footer>
        <p>© Manjam</p>
      </footer>
      <AssistantWidget />
    </>
  );
}

/** The Mining Help button as a person or a screen reader finds it: null while it has stepped aside. */
const helpButton = () => screen.queryByRole('button', { name: 'Mining Help' });

beforeEach(() => {
  localStorage.setItem('hasVisitedBefore', 'true');
  initI18n('en');
  scrollY = 0;
  // What hides the button is the widget's own stylesheet.
  const style = document.createElement('style');
  style.textContent = readFileSync(join(import.meta.dirname, 'assistant.css'), 'utf8');
  document.head.append(style);
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(layout);
  // No frame is ever drawn here: a check left to the next animation frame is never seen.
  vi.stubGlobal('requestAnimationFrame', () => 0);
});
afterEach(() => {
  document.head.querySelectorAll('style').forEach((style) => style.remove());
  vi.unstubAllGlobals();
});

describe('Mining Help steps aside before the footer is drawn under it', () => {
  it('when the page shrinks and brings the footer up behind it (a DOM change)', async () => {
    const { rerender } = render(<Page miners={20} />);
    expect(helpButton()).toBeInTheDocument();
    // Fewer results: the footer's first line moves to 720 px, behind the button (676-748 px).
    act(() => rerender(<Page miners={6} />));
    // The microtask that reports the DOM change, still before the browser could paint.
    await Promise.resolve();
    expect(helpButton()).not.toBeInTheDocument();
    // More results again: the footer leaves and the button is back.
    act(() => rerender(<Page miners={20} />));
    await Promise.resolve();
    expect(helpButton()).toBeInTheDocument();
  });

  it('when the page scrolls the footer up behind it', () => {
    render(<Page miners={20} />);
    expect(helpButton()).toBeInTheDocument();
    // The browser fires scroll in the frame's rendering steps, just before it paints.
    scrollY = 1420; // the footer's first line at 720 px
    document.dispatchEvent(new Event('scroll', { bubbles: true }));
    expect(helpButton()).not.toBeInTheDocument();
    scrollY = 1700; // scrolled on: the line is above the button
    document.dispatchEvent(new Event('scroll', { bubbles: true }));
    expect(helpButton()).toBeInTheDocument();
  });

  it('stays where it is while it has the keyboard focus', async () => {
    const { rerender } = render(<Page miners={20} />);
    const button = helpButton();
    button?.focus();
    act(() => rerender(<Page miners={6} />));
    await Promise.resolve();
    expect(helpButton()).toBe(button);
    expect(button).toHaveFocus();
  });
});
