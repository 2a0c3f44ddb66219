import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { renderWithClient } from '@/testing/test-utils';

import { InsuranceGuide } from './insurance-guide';

function renderGuide() {
  return renderWithClient(<InsuranceGuide />, { path: '/demo/insurance-guide' });
}

describe('InsuranceGuide', () => {
  it('should show a legend of the four tags, each with its own shape as well as colour', async () => {
    renderGuide();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Development Insurance Guide' }),
    ).toBeInTheDocument();

    const legend = screen.getByRole('region', { name: 'Who buys the insurance' });
    const items = within(legend).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('[data-tag]')?.textContent)).toEqual([
      'Property Developer',
      'Contractor',
      'Either or Joint Policy',
      'Both needed',
    ]);
    const shapes = items.map((item) =>
      item.querySelector('[data-shape]')?.getAttribute('data-shape'),
    );
    expect(new Set(shapes).size).toBe(4);
  });

  it('should show the 15 insurances by the five stages, naming who buys each cover', async () => {
    renderGuide();
    const table = await screen.findByRole('table', { name: 'Insurances by development stage' });

    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Insurance', 'Site Acquisition', 'Planning', 'Tender', 'Works', 'Completion']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(15);
    const employers = rows.find(
      (row) => within(row).getByRole('rowheader').textContent === 'Employers liability',
    )!;
    expect(
      within(employers)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Not needed', 'Not needed', 'Not needed', 'Contractor', 'Not needed']);
  });
});
