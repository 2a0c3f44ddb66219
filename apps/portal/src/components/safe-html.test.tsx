import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { defaultTheme } from '@firm/ui';
import { ThemeProvider } from 'styled-components';

import { demoteHeadings, SafeHtml } from './safe-html';

describe('demoteHeadings', () => {
  it('should move the highest heading to the given level and the others with it', () => {
    expect(demoteHeadings('<h2 id="a">Cover</h2><p>x</p><h3>Limits</h3>', 3)).toBe(
      '<h3 id="a">Cover</h3><p>x</p><h4>Limits</h4>',
    );
  });

  it('should never go beyond h6', () => {
    expect(demoteHeadings('<h2>A</h2><h5>B</h5>', 4)).toBe('<h4>A</h4><h6>B</h6>');
  });

  it('should leave HTML alone when its headings are already low enough, or it has none', () => {
    expect(demoteHeadings('<h4>A</h4>', 3)).toBe('<h4>A</h4>');
    expect(demoteHeadings('<p>No headings</p>', 3)).toBe('<p>No headings</p>');
  });
});

describe('SafeHtml', () => {
  it('should render the HTML as markup', () => {
    const { container } = render(
      <ThemeProvider theme={defaultTheme}>
        <SafeHtml html="<p>Hello <strong>there</strong></p>" headingsFrom={3} />
      </ThemeProvider>,
    );
    expect(container.querySelector('strong')).toHaveTextContent('there');
  });
});
