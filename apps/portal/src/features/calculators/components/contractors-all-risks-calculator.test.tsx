import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { jsonResponse } from '@/testing/fixtures';
import { renderWithClient } from '@/testing/test-utils';

import { useContractorsAllRisksStore } from '../stores/contractors-all-risks-store';

import { ContractorsAllRisksCalculator } from './contractors-all-risks-calculator';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  useContractorsAllRisksStore.getState().reset();
  sessionStorage.clear();
});

function renderCalculator() {
  return renderWithClient(<ContractorsAllRisksCalculator />, {
    path: '/demo/calculator/contractors-all-risks',
  });
}

describe('ContractorsAllRisksCalculator', () => {
  describe('when Calculate is pressed with the telephone emptied', () => {
    it('should highlight it and post nothing', async () => {
      const user = userEvent.setup();
      renderCalculator();
      await user.clear(await screen.findByLabelText('Telephone'));

      await user.click(screen.getByRole('button', { name: 'Calculate' }));

      expect(screen.getByLabelText('Telephone')).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
      expect(fetchMock).not.toHaveBeenCalled();
    });
  });

  describe('when Calculate is pressed for a Commercial Conversion of £2,500,000', () => {
    it('should show low 0.35% £8,750, medium 0.4% £10,000 and high 0.45% £11,250 with the assumptions', async () => {
      const user = userEvent.setup();
      fetchMock.mockImplementation(async (url) =>
        url === '/api/demo/car'
          ? jsonResponse({ reference: 'CAR-2026-000001', quote: {} }, { status: 201 })
          : new Response(null, { status: 204 }),
      );
      renderCalculator();
      await user.selectOptions(
        await screen.findByLabelText('Property type'),
        'Commercial Conversion',
      );
      const amount = screen.getByRole('textbox', { name: /^Contract works value.*exact amount/ });
      await user.clear(amount);
      await user.type(amount, '2,500,000{Enter}');

      await user.click(screen.getByRole('button', { name: 'Calculate' }));

      const table = within(screen.getByRole('region', { name: 'Your estimate' })).getByRole(
        'table',
      );
      const rows = within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => [
          within(row).getByRole('rowheader').textContent,
          ...within(row)
            .getAllByRole('cell')
            .map((cell) => cell.textContent),
        ]);
      expect(rows).toEqual([
        ['Low', '0.35%', '£8,750'],
        ['Medium', '0.4%', '£10,000'],
        ['High', '0.45%', '£11,250'],
      ]);
      expect(screen.getByText('£8,750 to £11,250')).toBeInTheDocument();
      expect(screen.getByText(/12–18 month project/)).toBeInTheDocument();
      expect(screen.getByText(/No timber frame/)).toBeInTheDocument();
      expect(await screen.findByText('Your reference: CAR-2026-000001')).toBeInTheDocument();
      const [, init] = fetchMock.mock.calls.find(([url]) => url === '/api/demo/car')!;
      expect(JSON.parse(String(init?.body))).toEqual({
        propertyType: 'Commercial Conversion',
        contractWorksValue: 2_500_000,
        name: 'Ada Lovelace',
        telephone: '07700 900123',
        email: 'ada@example.com',
        lowPremium: 8_750,
        mediumPremium: 10_000,
        highPremium: 11_250,
      });
    });
  });
});
