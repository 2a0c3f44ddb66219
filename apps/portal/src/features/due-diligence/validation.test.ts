import { describe, expect, it } from 'vitest';

import { HIDDEN_CHARACTERS_MESSAGE } from '@/lib/text';

import { EMPTY_DRAFT } from './stores/draft-store';
import {
  fieldRefusalOf,
  HIDDEN_CONTROLS_MESSAGE,
  invalidFields,
  missingFields,
  sentCharacterCount,
  textFieldMessage,
  UNREADABLE_CHARACTERS_MESSAGE,
} from './validation';

describe('missingFields', () => {
  const filled = {
    ...EMPTY_DRAFT,
    projectName: 'Riverside',
    projectAddress: '1 Quay Street',
    cityAndPostcode: 'Bristol BS1 4DJ',
    projectDescription: 'Twelve flats',
  };

  it('lists nothing when every required field has text', () => {
    expect(missingFields(filled)).toEqual([]);
  });

  it('lists empty, white-space-only and invisible-only fields in the form order', () => {
    expect(
      missingFields({
        ...filled,
        projectName: '',
        cityAndPostcode: '  ',
        projectDescription: '\u200B\u2060',
      }),
    ).toEqual(['projectName', 'cityAndPostcode', 'projectDescription']);
  });
});

describe('textFieldMessage', () => {
  const filled = {
    ...EMPTY_DRAFT,
    projectName: 'Riverside',
    projectAddress: '1 Quay Street',
    cityAndPostcode: 'Bristol BS1 4DJ',
    projectDescription: 'Twelve flats',
  };

  it('takes every field at its limit, counted in characters (code points) of the trimmed text', () => {
    const draft = {
      ...filled,
      projectName: ` ${'𝐀'.repeat(200)} `,
      projectAddress: 'a'.repeat(500),
      cityAndPostcode: 'c'.repeat(200),
      projectDescription: 'd'.repeat(5000),
    };
    expect(invalidFields(draft)).toEqual([]);
  });

  it('says the limit of each field one character over it, as the API does', () => {
    const draft = {
      ...filled,
      projectName: 'a'.repeat(201),
      projectAddress: 'a'.repeat(501),
      cityAndPostcode: 'c'.repeat(201),
      projectDescription: 'd'.repeat(10_000),
    };
    expect(invalidFields(draft)).toEqual([
      'projectName',
      'projectAddress',
      'cityAndPostcode',
      'projectDescription',
    ]);
    expect(textFieldMessage(draft, 'projectAddress')).toBe(
      'Use at most 500 characters (this has 501)',
    );
    expect(textFieldMessage(draft, 'projectDescription')).toBe(
      'Use at most 5,000 characters (this has 10,000)',
    );
  });

  it('counts a line break of the description as the two characters the browser sends (CR LF)', () => {
    expect(sentCharacterCount('a\nb\r\nc')).toBe(7);
    expect(
      textFieldMessage(
        { ...filled, projectDescription: `${'d'.repeat(4998)}\n` + 'e' },
        'projectDescription',
      ),
    ).toBe('Use at most 5,000 characters (this has 5,001; a line break counts as two)');
  });

  it('refuses line breaks outside the description, but not those trimmed off, nor tabs', () => {
    expect(textFieldMessage({ ...filled, projectName: 'River\nside' }, 'projectName')).toBe(
      HIDDEN_CHARACTERS_MESSAGE,
    );
    expect(
      textFieldMessage({ ...filled, cityAndPostcode: 'Bristol\u2028BS1' }, 'cityAndPostcode'),
    ).toBe(HIDDEN_CHARACTERS_MESSAGE);
    expect(
      textFieldMessage({ ...filled, projectName: 'Riverside\n' }, 'projectName'),
    ).toBeUndefined();
    expect(
      textFieldMessage({ ...filled, projectName: 'River\tside' }, 'projectName'),
    ).toBeUndefined();
    expect(
      textFieldMessage(
        { ...filled, projectDescription: 'Flats\r\nShops\u2028Offices\u0085Car park' },
        'projectDescription',
      ),
    ).toBeUndefined();
  });

  it.each([
    ['NUL', '\u0000'],
    ['an escape', '\u001B[31m'],
    ['a C1 control', '\u009B'],
    ['a right-to-left mark', '\u200F'],
    ['an override', '\u202E'],
    ['an isolate', '\u2066'],
  ])('refuses %s in every field, the description included', (_what, hidden) => {
    const draft = {
      ...filled,
      projectName: `River${hidden}side`,
      projectDescription: `Twelve${hidden} flats`,
    };
    expect(textFieldMessage(draft, 'projectName')).toBe(HIDDEN_CHARACTERS_MESSAGE);
    expect(textFieldMessage(draft, 'projectDescription')).toBe(HIDDEN_CONTROLS_MESSAGE);
  });

  it.each([
    ['a lone high surrogate', 'River\uD83Cside'],
    ['a lone low surrogate', 'River\uDFD7side'],
    ['U+FFFD, which the API takes for bytes that were not UTF-8', 'River\uFFFDside'],
  ])('refuses %s as unreadable', (_what, name) => {
    expect(textFieldMessage({ ...filled, projectName: name }, 'projectName')).toBe(
      UNREADABLE_CHARACTERS_MESSAGE,
    );
  });

  it('takes joiners, emoji and right-to-left letters, which the API takes', () => {
    const name = 'بيت 👩‍👩‍👧 می‌خواهم';
    expect(textFieldMessage({ ...filled, projectName: name }, 'projectName')).toBeUndefined();
  });

  it('says a blank field is to be filled in first', () => {
    expect(textFieldMessage({ ...filled, projectName: ' \u200B ' }, 'projectName')).toBe(
      'Enter the project name',
    );
  });
});

describe('fieldRefusalOf', () => {
  const sent = { ...EMPTY_DRAFT, projectName: 'a'.repeat(201) };

  it('names the text field and says the limit when the text is over it', () => {
    expect(fieldRefusalOf('The field "SingleLine" (Project name) is too long.', sent)).toEqual({
      field: 'projectName',
      message: 'Use at most 200 characters (this has 201)',
    });
  });

  it('puts an amount or a field the form does not show by its label, not its internal name', () => {
    expect(
      fieldRefusalOf(
        'The field "Currency" (Loan amount) must be a whole number of pounds, like 12500000.',
        sent,
      ),
    ).toEqual({
      field: null,
      message: 'Loan amount must be a whole number of pounds, like 12500000.',
    });
    expect(fieldRefusalOf('The field "Email" (E-mail) must be an e-mail address.', sent)).toEqual({
      field: null,
      message: 'E-mail must be an e-mail address.',
    });
  });

  it('leaves a message that names none of the form’s fields to be shown as it is', () => {
    expect(fieldRefusalOf('Too many fields in the form.', sent)).toBeUndefined();
    expect(fieldRefusalOf('Unknown field "x".', sent)).toBeUndefined();
    expect(fieldRefusalOf('The field "x" contains a NUL character.', sent)).toBeUndefined();
  });
});
