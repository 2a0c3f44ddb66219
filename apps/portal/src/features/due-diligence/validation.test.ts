import { describe, expect, it } from 'vitest';
import { EMPTY_DRAFT } from './stores/draft-store';
import { missingFields } from './validation';

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
