import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RATE_TABLE_VERSION } from '@firm/pricing';

import { jsonResponse, makeClient } from '@/testing/fixtures';
import { renderWithClient } from '@/testing/test-utils';

import { useBtrWarrantyStore } from '../stores/btr-warranty-store';
import { useBuildingWarrantyStore } from '../stores/building-warranty-store';
import { useContactPrefillStore } from '../stores/contact-prefill-store';
import { useContractorsAllRisksStore } from '../stores/contractors-all-risks-store';

import { BtrWarrantyCalculator } from './btr-warranty-calculator';
import { BuildingWarrantyCalculator } from './building-warranty-calculator';
import { ContractorsAllRisksCalculator } from './contractors-all-risks-calculator';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  useBuildingWarrantyStore.getState().reset();
  useBtrWarrantyStore.getState().reset();
  useContractorsAllRisksStore.getState().reset();
  useContactPrefillStore.getState().reset();
  sessionStorage.clear();
});

/** A user whose phone, given at login before the phone rule, is no phone number. */
const oldPhone = makeClient({ phone: '020 7946 0000 ext 12' });
const EXTENSION_MESSAGE = 'Leave out the extension: enter the phone number on its own';

const calculators = [
  {
    name: 'building warranty',
    element: <BuildingWarrantyCalculator />,
    path: '/demo/calculator/building-warranty',
    telephone: 'Telephone',
  },
  {
    name: 'BTR warranty',
    element: <BtrWarrantyCalculator />,
    path: '/demo/calculator/btr-warranty',
    telephone: 'Contact number',
  },
  {
    name: 'contractors all risks',
    element: <ContractorsAllRisksCalculator />,
    path: '/demo/calculator/contractors-all-risks',
    telephone: 'Telephone',
  },
] as const;

/** The API's answer to the warranty post: the reference and the server's own quote. */
function created(reference: string) {
  return jsonResponse(
    {
      reference,
      quote: {
        rates: { buildCost: 1.13, buildType: 0, stage: 0, units: 0.05 },
        totalPercentage: 1.18,
        estimate: 11_800,
        rateTableVersion: RATE_TABLE_VERSION,
      },
    },
    { status: 201 },
  );
}

// Found by the twenty-sixth session: a prefilled phone number the API would refuse was flagged only at Calculate.
describe.each(calculators)(
  'the $name calculator, for a user whose phone is no phone number',
  (calculator) => {
    it('should flag the prefilled telephone as the form is shown, without moving focus', async () => {
      renderWithClient(calculator.element, { path: calculator.path, client: oldPhone });
      const telephone = await screen.findByLabelText(calculator.telephone);

      expect(telephone).toHaveValue('020 7946 0000 ext 12');
      expect(telephone).toHaveAttribute('aria-invalid', 'true');
      expect(telephone).toHaveAccessibleDescription(EXTENSION_MESSAGE);
      expect(telephone).not.toHaveFocus();
      // Only the telephone: the other prefilled fields are fine.
      expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
      expect(fetchMock).not.toHaveBeenCalled();
    });

    it('should not flag a prefilled telephone that is fine, nor an emptied one before Calculate', async () => {
      const user = userEvent.setup();
      renderWithClient(calculator.element, { path: calculator.path, client: makeClient() });
      const telephone = await screen.findByLabelText(calculator.telephone);
      expect(telephone).not.toHaveAttribute('aria-invalid');
      await user.clear(telephone);
      expect(telephone).not.toHaveAttribute('aria-invalid');
    });
  },
);

// Found by the twenty-sixth session: a telephone corrected in one calculator was not what the others prefilled.
describe('a telephone corrected in one calculator and sent to the team', () => {
  it('should be what the other calculators prefill', async () => {
    const user = userEvent.setup();
    fetchMock.mockImplementation(() => Promise.resolve(created('BW-2026-000123')));
    const first = renderWithClient(<BuildingWarrantyCalculator />, {
      path: '/demo/calculator/building-warranty',
      client: oldPhone,
    });
    const telephone = await screen.findByLabelText('Telephone');
    await user.clear(telephone);
    await user.type(telephone, '020 7946 0000');
    // Typing clears the flag: the field is checked again at Calculate.
    expect(telephone).not.toHaveAttribute('aria-invalid');
    await user.click(screen.getByRole('button', { name: 'Calculate' }));
    expect(await screen.findByText(/BW-2026-000123/)).toBeInTheDocument();
    first.unmount();

    for (const calculator of calculators.slice(1)) {
      const { unmount } = renderWithClient(calculator.element, {
        path: calculator.path,
        client: oldPhone,
      });
      const prefilled = await screen.findByLabelText(calculator.telephone);
      expect(prefilled, calculator.name).toHaveValue('020 7946 0000');
      expect(prefilled, calculator.name).not.toHaveAttribute('aria-invalid');
      unmount();
    }
    // Kept for the tab (a reload), as the drafts are.
    expect(sessionStorage.getItem('calculator:contact')).toContain('020 7946 0000');
  });

  it('should not carry a telephone the team did not get, nor to another user', async () => {
    const user = userEvent.setup();
    fetchMock.mockResolvedValue(jsonResponse({ error: 'Internal server error' }, { status: 500 }));
    const first = renderWithClient(<BuildingWarrantyCalculator />, {
      path: '/demo/calculator/building-warranty',
      client: oldPhone,
    });
    const telephone = await screen.findByLabelText('Telephone');
    fireEvent.change(telephone, { target: { value: '020 7946 0001' } });
    await user.click(screen.getByRole('button', { name: 'Calculate' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(await screen.findByText(/Internal server error/)).toBeInTheDocument();
    first.unmount();

    const car = renderWithClient(<ContractorsAllRisksCalculator />, {
      path: '/demo/calculator/contractors-all-risks',
      client: oldPhone,
    });
    expect(await screen.findByLabelText('Telephone')).toHaveValue('020 7946 0000 ext 12');
    car.unmount();

    useContactPrefillStore.getState().remember('demo/someone@example.com', '020 7946 0002');
    renderWithClient(<ContractorsAllRisksCalculator />, {
      path: '/demo/calculator/contractors-all-risks',
      client: oldPhone,
    });
    expect(await screen.findByLabelText('Telephone')).toHaveValue('020 7946 0000 ext 12');
  });
});
