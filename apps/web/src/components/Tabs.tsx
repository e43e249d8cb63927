import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem<V extends string> {
  id: V;
  label: ReactNode;
}

export interface TabsProps<V extends string> {
  tabs: readonly TabItem<V>[];
  value: V;
  onChange: (value: V) => void;
  /** Accessible name of the tab list. */
  label: string;
  orientation?: 'horizontal' | 'vertical';
  /** Prefix for tab/panel ids; pair with <TabPanel idBase=... />. */
  idBase?: string;
}

export function tabId(idBase: string, value: string): string {
  return `${idBase}-tab-${value}`;
}
export function panelId(idBase: string, value: string): string {
  return `${idBase}-panel-${value}`;
}

function nextIndex(
  key: string,
  index: number,
  count: number,
  vertical: boolean,
  rtl: boolean,
): number | null {
  const forward = vertical ? 'ArrowDown' : rtl ? 'ArrowLeft' : 'ArrowRight';
  const backward = vertical ? 'ArrowUp' : rtl ? 'ArrowRight' : 'ArrowLeft';
  if (key === forward) return (index + 1) % count;
  if (key === backward) return (index - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/** WAI-ARIA tabs: roving tabindex, arrow keys (mirrored in RTL), Home/End; selection follows focus. */
export function Tabs<V extends string>({
  tabs,
  value,
  onChange,
  label,
  orientation = 'horizontal',
  idBase,
}: TabsProps<V>) {
  const generated = useId();
  const base = idBase ?? generated;
  const listRef = useRef<HTMLDivElement>(null);

  // The active tab is always in view: a strip that scrolls sideways (Settings on a phone) brings
  // it in, in either direction, without scrolling the page.
  useEffect(() => {
    const list = listRef.current;
    const active = list?.querySelector<HTMLElement>(`#${CSS.escape(tabId(base, value))}`);
    if (!list || !active || list.scrollWidth <= list.clientWidth) return;
    const listBox = list.getBoundingClientRect();
    const box = active.getBoundingClientRect();
    if (box.left < listBox.left) list.scrollBy({ left: box.left - listBox.left });
    else if (box.right > listBox.right) list.scrollBy({ left: box.right - listBox.right });
  }, [base, value]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const index = tabs.findIndex((tab) => tab.id === value);
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
    const next = nextIndex(event.key, index, tabs.length, orientation === 'vertical', rtl);
    const tab = next === null ? undefined : tabs[next];
    if (!tab) return;
    event.preventDefault();
    onChange(tab.id);
    listRef.current?.querySelector<HTMLButtonElement>(`#${CSS.escape(tabId(base, tab.id))}`)?.focus();
  };

  return (
    <div
      ref={listRef}
      role="tablist"
      aria-label={label}
      aria-orientation={orientation}
      className={`tabs tabs--${orientation}`}
      onKeyDown={onKeyDown}
    >
      {tabs.map((tab) => {
        const selected = tab.id === value;
        return (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={tabId(base, tab.id)}
            aria-selected={selected}
            aria-controls={panelId(base, tab.id)}
            tabIndex={selected ? 0 : -1}
            className={`tabs__tab${selected ? ' tabs__tab--active' : ''}`}
            onClick={() => onChange(tab.id)}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}

export interface TabPanelProps {
  idBase: string;
  value: string;
  children: ReactNode;
  className?: string;
}

export function TabPanel({ idBase, value, children, className }: TabPanelProps) {
  return (
    <div
      role="tabpanel"
      id={panelId(idBase, value)}
      aria-labelledby={tabId(idBase, value)}
      tabIndex={0}
      className={className}
    >
      {children}
    </div>
  );
}
