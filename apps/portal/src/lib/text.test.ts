import { describe, expect, it } from 'vitest';
import { isBlank } from './text';

describe('isBlank', () => {
  it.each([
    '',
    ' ',
    '\t\n',
    '\u00A0',
    '\u0085',
    '\u200B',
    ' \u200C\u200D\u2060 ',
    '\u00AD',
    '\u180E',
    '\u3000',
  ])('counts %j as blank', (value) => {
    expect(isBlank(value)).toBe(true);
  });

  it.each(['a', ' a ', '\u200Ba', '0', '£', 'é'])('counts %j as filled in', (value) => {
    expect(isBlank(value)).toBe(false);
  });
});
