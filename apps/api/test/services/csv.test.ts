import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from '../../src/services/csv.js';

describe('csvCell', () => {
  it('should quote cells with commas, quotes and line breaks', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(42)).toBe('42');
  });

  it('should neutralise cells a spreadsheet would run as a formula', () => {
    for (const formula of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) {
      expect(csvCell(formula).replace(/^"/, '').startsWith("'")).toBe(true);
    }
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
  });

  it('should neutralise a formula behind spaces, quotes, invisible characters or a control character', () => {
    const hidden = [
      ' =1+1',
      '   +1',
      ' @SUM(A1)',
      '\u00a0=1+1',
      '\u3000=1+1',
      '\u200b=1+1',
      '\ufeff=1+1',
      '"=1+1',
      '" =HYPERLINK(""http://evil.example"")',
      "'=1+1",
      '\u201c=1+1',
      ' \t=1+1',
      '\n=1+1',
      '\0=1+1',
      '\x0b=1',
      "=cmd|' /C calc'!A0",
      " =cmd|' /C calc'!A0",
      '＝1+1',
      ' ＋1',
      // Found by the nineteenth session's API probe: characters the API's blank-text rule counts as showing
      // nothing, and the small and minus-sign forms, were not looked through.
      '\u180e=1+1',
      '\u034f=1+1',
      '\u2800=1+1',
      '\u3164=1+1',
      '\u{e0020}=1+1',
      '\ufe0f=1+1',
      '\u0301=1+1',
      '\u202e=1+1',
      '\u2212 1+1',
      '\ufe62 1',
      '\ufe63 1',
      '\ufe66 1',
      '\ufe6b SUM(A1)',
    ];
    for (const text of hidden) {
      const cell = csvCell(text);
      expect(cell.startsWith('"') ? cell.slice(1) : cell, JSON.stringify(text)).toMatch(/^'/);
    }
    // Not formulas: left as they are.
    for (const text of [
      'plain',
      "O'Brien",
      '"quoted"',
      'a-b',
      '1+1',
      '£1,000',
      'x = y',
      'é=1',
      '\u{1f3f4}\u{e0067}',
    ]) {
      expect(csvCell(text).replace(/^"/, '')).not.toMatch(/^'/);
    }
  });

  it('should keep every record on one row with its columns whatever the cells hold', () => {
    const cells = [
      'a,b',
      'say "hi"',
      'two\r\nlines',
      'bare\rcr',
      'nul\0inside',
      'lone \ud800 half',
      'x'.repeat(40_000),
    ];
    const csv = toCsv(
      ['one', 'two'],
      cells.map((cell, i) => [i, cell]),
    );
    expect(csv).not.toContain('\0');
    expect(csv).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    // A strict RFC 4180 reading: one row per record, two columns each, the text back as it was (NUL and the
    // lone surrogate as U+FFFD).
    const rows: string[][] = [];
    let row: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < csv.length; i += 1) {
      const ch = csv[i];
      if (quoted) {
        if (ch === '"' && csv[i + 1] === '"') {
          cell += '"';
          i += 1;
        } else if (ch === '"') quoted = false;
        else cell += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ',') {
        row.push(cell);
        cell = '';
      } else if (ch === '\r' && csv[i + 1] === '\n') {
        row.push(cell);
        rows.push(row);
        row = [];
        cell = '';
        i += 1;
      } else {
        expect(ch).not.toMatch(/[\r\n]/);
        cell += ch;
      }
    }
    expect(rows).toHaveLength(cells.length + 1);
    expect(rows.slice(1).map((r) => r[1])).toEqual(
      cells.map((c) => c.replace('\0', '\ufffd').replace('\ud800', '\ufffd')),
    );
    for (const r of rows) expect(r).toHaveLength(2);
  });

  it('should build CRLF-terminated rows', () => {
    expect(toCsv(['a', 'b'], [[1, 'x,y']])).toBe('a,b\r\n1,"x,y"\r\n');
  });
});
