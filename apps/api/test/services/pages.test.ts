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

  it('should tell a browser already logged in to the client so, and lead it to the dashboard', () => {
    const page = parse(invalidLinkPage(hostile, 'northbank', { loggedIn: true }));
    expect(page.querySelector('h1')?.textContent).toBe('This login link is invalid or has expired');
    expect(page.querySelector('p')?.textContent).toBe(
      `You are already logged in to ${hostile} in this browser, so you do not need a login link.`,
    );
    expect([...page.querySelectorAll('bdi')].map((bdi) => bdi.textContent)).toEqual([hostile]);
    const links = [...page.querySelectorAll('a')];
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Go to the dashboard', '/northbank/dashboard'],
    ]);
  });
});

// Found by the fifteenth session's accessibility probe: the focus ring was the accent #c8963e, 2.66:1 against the
// white card and 2.46:1 against the page, under the 3:1 WCAG 1.4.11 asks of a focus indicator.
describe('login link pages, focus ring', () => {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const contrast = (a: string, b: string) => {
    const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (light! + 0.05) / (dark! + 0.05);
  };

  it('should draw the ring at 3:1 or more against the card and the page', () => {
    for (const html of [
      continuePage('Acme', 'demo', 'token'),
      invalidLinkPage('Acme', 'demo'),
      invalidLinkPage('Acme', 'demo', { loggedIn: true }),
    ]) {
      const ring = /:focus-visible\s*\{\s*outline:\s*3px solid (#[0-9a-f]{6})/i.exec(html)?.[1];
      expect(ring).toBeDefined();
      expect(contrast(ring!, '#ffffff')).toBeGreaterThanOrEqual(3);
      expect(contrast(ring!, '#f4f6f8')).toBeGreaterThanOrEqual(3);
    }
  });
});
