import { describe, expect, it } from 'vitest';
import { htmlToText, sanitizeHtml } from '../../src/services/sanitize.js';

describe('sanitizeHtml', () => {
  it('should keep ordinary article markup and safe links', () => {
    const html =
      '<h2>Title</h2><p>Text with <a href="https://example.com/x">a link</a>, <a href="/demo/info">another</a> ' +
      'and <a href="mailto:team@advisory.example">mail</a>.</p><ul><li>one</li></ul><img src="/media/demo/a.svg" alt="A">';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it.each([
    ['<script>alert(1)</script><p>x</p>', '<p>x</p>'],
    ['<img src="x.png" onerror="alert(1)">', '<img src="x.png">'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href=" JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
    ['<img src="data:image/png;base64,AAAA">', '<img>'],
    ['<a href="data:text/html,<script>alert(1)</script>">x</a>', '<a>x</a>'],
    ['<iframe src="https://evil.example"></iframe><p>x</p>', '<p>x</p>'],
    ['<form action="/x"><input name="a"><button>go</button></form>', 'go'],
    ['<style>body{display:none}</style><p style="color:red">x</p>', '<p>x</p>'],
    ['<object data="x.swf"></object><embed src="x.swf">', ''],
    ['<svg><script>alert(1)</script></svg>', ''],
    ['<a href="https://example.com" target="_blank">x</a>', '<a href="https://example.com">x</a>'],
  ])('should clean %s', (input, output) => {
    expect(sanitizeHtml(input)).toBe(output);
  });

  it('should give the plain text of HTML', () => {
    expect(htmlToText('<p>Hello <b>world</b></p>\n<p>again</p>')).toBe('Hello world again');
  });
});
