import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { RATE_TABLE_VERSION } from '@firm/pricing';

import { jsonResponse } from '@/testing/fixtures';
import { mockCalculatorFetch, renderCalculator } from '@/testing/render-calculator';

const fetchMock = mockCalculatorFetch();

async function typeAmount(user: ReturnType<typeof userEvent.setup>, name: RegExp, text: string) {
  const field = screen.getByRole('textbox', { name });
  await user.clear(field);
  await user.type(field, `${text}{Enter}`);
}

/** The amounts column of the breakdown, top to bottom. */
function breakdown() {
  const estimate = screen.getByRole('region', { name: 'Your estimate' });
  return within(estimate)
    .getAllByRole('row')
    .map((row) => within(row).getByRole('cell').textContent);
}

describe('BtrWarrantyCalculator', () => {
  it('should ask for the contact number, not a telephone, prefilled from the user', async () => {
    renderCalculator('BTR warranty');

    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'BTR Warranty + Loss of Rent Calculator',
      }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Contact number')).toHaveValue('07700 900123');
    expect(screen.getByLabelText('Contact number')).toHaveAttribute('name', 'contact_number');
  });

  describe('when Calculate is pressed with the contact number emptied', () => {
    it('should highlight it, focus it and post nothing', async () => {
      const user = userEvent.setup();
      renderCalculator('BTR warranty');
      await user.clear(await screen.findByLabelText('Contact number'));

      await user.click(screen.getByRole('button', { name: 'Calculate' }));

      expect(screen.getByLabelText('Contact number')).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByLabelText('Contact number')).toHaveFocus();
      expect(screen.queryByText('Total premium (including IPT)')).not.toBeInTheDocument();
      expect(fetchMock).not.toHaveBeenCalled();
    });
  });

  describe('given loss of rent is not included', () => {
    it('should hide its fields and price the warranty alone: £10,000,000 at 0.85% = £85,000 + £10,200 IPT', async () => {
      const user = userEvent.setup();
      fetchMock.mockReturnValue(new Promise<Response>(() => {}));
      renderCalculator('BTR warranty');
      expect(await screen.findByRole('switch', { name: 'Include loss of rent' })).toHaveAttribute(
        'aria-checked',
        'false',
      );
      expect(screen.queryByLabelText('Term')).not.toBeInTheDocument();
      await typeAmount(user, /^Sum insured.*exact amount/, '10,000,000');

      await user.click(screen.getByRole('button', { name: 'Calculate' }));

      expect(breakdown()).toEqual([
        '0.85%',
        '0%',
        '0.85%',
        '£85,000',
        'Not included',
        '£85,000',
        '£10,200',
        '£95,200',
      ]);
    });
  });

  describe('given loss of rent: £2,000,000 a year over 24 months and a 6-month programme', () => {
    it('should show each line, add up to £175,616 and post est = total', async () => {
      const user = userEvent.setup();
      fetchMock.mockImplementation(async (url) =>
        url === '/api/demo/btr'
          ? jsonResponse(
              { reference: 'BTR-2026-000001', quote: { rateTableVersion: RATE_TABLE_VERSION } },
              { status: 201 },
            )
          : new Response(null, { status: 204 }),
      );
      renderCalculator('BTR warranty');
      await user.selectOptions(await screen.findByLabelText('Stage'), 'Part Complete');
      await typeAmount(user, /^Sum insured.*exact amount/, '£10m');
      await user.click(screen.getByRole('switch', { name: 'Include loss of rent' }));
      await typeAmount(user, /^Anticipated rental income.*exact amount/, '2,000,000');
      await user.selectOptions(screen.getByLabelText('Term'), '24 months');
      fireEvent.change(screen.getByRole('slider', { name: 'Programme of works (months)' }), {
        target: { value: '6' },
      });

      await user.click(screen.getByRole('button', { name: 'Calculate' }));

      // 10,000,000 × 1.16% = 116,000; 2,000,000 × 0.0072 × 2 + 6 × 2,000 = 40,800;
      // 156,800 + floor(12% = 18,816) = 175,616.
      expect(breakdown()).toEqual([
        '0.85%',
        '0.31%',
        '1.16%',
        '£116,000',
        '£40,800',
        '£156,800',
        '£18,816',
        '£175,616',
      ]);
      // The line's own terms (found by the twenty-fifth session's portal probe: "6 months programme of works").
      expect(
        screen.getByText(
          /\(24 months at 0\.72% of £2,000,000 a year, 6-month programme of works\)/,
        ),
      ).toBeInTheDocument();
      expect(await screen.findByText('Your reference: BTR-2026-000001')).toBeInTheDocument();
      const [, init] = fetchMock.mock.calls.find(([url]) => url === '/api/demo/btr')!;
      expect(JSON.parse(String(init?.body))).toEqual({
        stage: 'Part Complete',
        stageValue: 0.31,
        units: 50,
        sum_insured: 10_000_000,
        GDV: 20_000_000,
        includeRentCoverLoss: true,
        anticipatedRentalIncome: 2_000_000,
        term: 24,
        programmeMonths: 6,
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        contact_number: '07700 900123',
        subTotal: 156_800,
        ipt: 18_816,
        total: 175_616,
        est: 175_616,
      });
    });
  });
});
