import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { continuePage, invalidLinkPage } from '../../src/services/pages.js';

/** The page's text as a reader sees it in logical order, and its elements. */
function parse(html: string) {
  return new JSDOM(html).window.document;
}

describe('login link pages', () => {
  const hostile = `Evil </title><script>alert(1)</script> "&' \u202Egnp.exe`;

  it('should show a hostile client name and token as text, never markup', () => {
    const page = parse(continuePage(hostile, 'demo', `"><script>alert(2)</script>`));
    expect(page.querySelectorAll('script')).toHaveLength(0);
    expect(page.title).toBe(`Log in to ${hostile}`);
    expect(page.querySelector('h1')?.textContent).toBe(`Log in to ${hostile}`);
    expect(page.querySelector<HTMLInputElement>('input[name="token"]')?.value).toBe(
      `"><script>alert(2)</script>`,
    );
    expect(page.querySelector('form')?.getAttribute('action')).toBe('/api/demo/login/link');
  });

  it("should keep a name's direction marks inside it, not turn the page's own sentence around", () => {
    // U+202E (RIGHT-TO-LEFT OVERRIDE) in a name would otherwise show " login page." as ".egap nigol".
    for (const html of [continuePage(hostile, 'demo', 'token'), invalidLinkPage(hostile, 'demo')]) {
      const names = [...parse(html).querySelectorAll('bdi')].map((bdi) => bdi.textContent);
      expect(names).toEqual([hostile]);
    }
    const invalid = parse(invalidLinkPage(hostile, 'demo'));
    expect(invalid.querySelector('p')?.textContent).toBe(
      `Login links work once and for 15 minutes. Ask for a new one on the ${hostile} login page.`,
    );
    expect(invalid.querySelector('p bdi')?.nextSibling?.textContent).toBe(' login page.');
  });
});
