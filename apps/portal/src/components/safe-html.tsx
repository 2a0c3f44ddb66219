import { useLayoutEffect, useMemo, useRef } from 'react';
import styled from 'styled-components';

import { repairContent, TABLE_BOX } from './repair-content';

type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

interface SafeHtmlProps {
  /** HTML that the API has already sanitised (content is sanitised on import, decisions.md §4). */
  html: string;
  /**
   * The level the body's highest heading should have, so that the page's outline stays right (a topic body under
   * an h2 accordion heading starts at h3). Headings above it move down; below it, none skips a level.
   */
  headingsFrom?: HeadingLevel;
  className?: string;
}

/**
 * The one place where the portal renders HTML from the API. The server sanitises every HTML field before it reaches
 * a browser; nothing else in the portal may use `dangerouslySetInnerHTML`.
 */
export function SafeHtml({ html, headingsFrom, className }: SafeHtmlProps) {
  const content = useMemo(() => prepareHtml(html, headingsFrom), [html, headingsFrom]);
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => keepScrollingTablesInTabOrder(ref.current), [content]);
  return <Prose ref={ref} className={className} dangerouslySetInnerHTML={{ __html: content }} />;
}

/**
 * A table's box ({@link repairContent}) is a tab stop only while the table is wider than it, so that its rows can
 * be scrolled into view by keyboard; a table that fits is not one more stop on the way through the page (left
 * alone by the nineteenth session). Measured again whenever the box or its table changes size (a turned phone, a
 * zoomed page). Returns what stops the watching.
 */
function keepScrollingTablesInTabOrder(root: HTMLElement | null): (() => void) | undefined {
  const boxes = [...(root?.querySelectorAll<HTMLElement>(`[${TABLE_BOX}]`) ?? [])];
  if (boxes.length === 0) return undefined;
  const measure = () => {
    for (const box of boxes) {
      if (box.scrollWidth > box.clientWidth) box.tabIndex = 0;
      // A box that holds the focus keeps its stop until the focus leaves it.
      else if (!box.contains(document.activeElement)) box.removeAttribute('tabindex');
    }
  };
  measure();
  // A box that kept its stop while it held the focus is measured again once the focus leaves it (found by the
  // twentieth session's probe of its own changes: it stayed a stop after the window widened).
  const left = (event: FocusEvent) => {
    const box = event.currentTarget as HTMLElement;
    if (!box.contains(event.relatedTarget as Node | null)) setTimeout(measure, 0);
  };
  for (const box of boxes) box.addEventListener('focusout', left);
  const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
  for (const box of boxes) {
    observer?.observe(box);
    if (box.firstElementChild) observer?.observe(box.firstElementChild);
  }
  return () => {
    observer?.disconnect();
    for (const box of boxes) box.removeEventListener('focusout', left);
  };
}

/**
 * The HTML as the page shows it: repaired for screen readers and keyboards ({@link repairContent}) and, with
 * `headingsFrom`, its headings moved down. Parsed in an inert `<template>`, so nothing in the HTML runs.
 */
export function prepareHtml(html: string, headingsFrom?: HeadingLevel): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  repairContent(template.content);
  if (headingsFrom) {
    demoteIn(template.content, headingsFrom);
    closeGaps(template.content, headingsFrom);
  }
  return template.innerHTML;
}

/**
 * Moves up any heading that is more than one level below the heading before it (h2 then h5 becomes h2 then h3):
 * screen reader users move by heading level, and a skipped level reads as missing content.
 */
function closeGaps(root: DocumentFragment, top: HeadingLevel) {
  let previous = top - 1;
  for (const heading of root.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    const level = Number(heading.tagName.slice(1));
    if (level > previous + 1) {
      previous += 1;
      const replacement = document.createElement(`h${previous}`);
      for (const attribute of heading.attributes) {
        replacement.setAttribute(attribute.name, attribute.value);
      }
      replacement.append(...heading.childNodes);
      heading.replaceWith(replacement);
    } else {
      previous = level;
    }
  }
}

/**
 * Moves every heading of `html` down so that the highest one is at `top` (h2 → h3 …, never beyond h6). Parsed in an
 * inert `<template>`, so nothing in the HTML runs.
 *
 * @example demoteHeadings('<h2>Cover</h2><h3>Limits</h3>', 3) // '<h3>Cover</h3><h4>Limits</h4>'
 */
export function demoteHeadings(html: string, top: HeadingLevel): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  return demoteIn(template.content, top) ? template.innerHTML : html;
}

/** Moves the headings of `root` down (see {@link demoteHeadings}); whether anything moved. */
function demoteIn(root: DocumentFragment, top: HeadingLevel): boolean {
  const headings = [...root.querySelectorAll('h1, h2, h3, h4, h5, h6')];
  if (headings.length === 0) return false;
  const levelOf = (heading: Element) => Number(heading.tagName.slice(1));
  const shift = top - Math.min(...headings.map(levelOf));
  if (shift <= 0) return false;
  for (const heading of headings) {
    const replacement = document.createElement(`h${Math.min(6, levelOf(heading) + shift)}`);
    for (const attribute of heading.attributes) {
      replacement.setAttribute(attribute.name, attribute.value);
    }
    replacement.append(...heading.childNodes);
    heading.replaceWith(replacement);
  }
  return true;
}

const Prose = styled.div`
  overflow-wrap: anywhere;

  & > :first-child {
    margin-top: 0;
  }

  & > :last-child {
    margin-bottom: 0;
  }

  h2,
  h3,
  h4,
  h5,
  h6 {
    margin: 1.5em 0 0.5em;
    line-height: ${({ theme }) => theme.lineHeight.tight};
  }

  h2 {
    font-size: ${({ theme }) => theme.fontSize.xl};
  }

  h3 {
    font-size: ${({ theme }) => theme.fontSize.lg};
  }

  h4,
  h5,
  h6 {
    font-size: ${({ theme }) => theme.fontSize.md};
  }

  /* Media no wider than the column, whatever its own size. Found by the eighteenth session's portal probe: a
     <video src controls> (the sanitiser keeps video, audio and canvas) was drawn at its 1,280 px and the page
     scrolled sideways on a phone (WCAG 1.4.10 reflow); only images were held in. Embeds, should the sanitiser
     ever keep one, with them. */
  img,
  video,
  audio,
  canvas,
  iframe,
  embed,
  object {
    max-width: 100%;
  }

  img,
  video,
  canvas {
    height: auto;
  }

  table {
    border-collapse: collapse;
  }

  /* A table wider than the column scrolls in its box (repairContent), not the page; preformatted text wraps. */
  [${TABLE_BOX}] {
    max-width: 100%;
    overflow-x: auto;
  }

  pre {
    white-space: pre-wrap;
  }

  th,
  td {
    border: 1px solid ${({ theme }) => theme.color.divider};
    padding: ${({ theme }) => theme.space.xs};
    text-align: left;
  }
`;
