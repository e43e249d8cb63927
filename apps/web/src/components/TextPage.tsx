import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface TextSection {
  heading: string;
  paragraphs: string[];
}

/** Sections stored in the translation files as [{heading, paragraphs[]}]. */
export function useSections(
  key:
    | 'about.sections'
    | 'learn.sections'
    | 'help.sections'
    | 'terms.sections'
    | 'privacy.sections'
    | 'cookies.sections',
): TextSection[] {
  const { t } = useTranslation();
  const value: unknown = t(key, { returnObjects: true });
  return Array.isArray(value) ? (value as TextSection[]) : [];
}

export interface TextPageProps {
  title: string;
  lead?: string;
  sections?: TextSection[];
  children?: ReactNode;
}

/** A plain content page: title, lead and headed sections, readable width. */
export function TextPage({ title, lead, sections = [], children }: TextPageProps) {
  return (
    <article className="container page prose">
      <header className="page__header">
        <h1>{title}</h1>
        {lead ? <p className="page__lead">{lead}</p> : null}
      </header>
      {sections.map((section) => (
        <section key={section.heading}>
          <h2>{section.heading}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
      {children}
    </article>
  );
}
