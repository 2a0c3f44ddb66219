import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { makeClient } from '@/testing/fixtures';
import { firstRenderProbe } from '@/testing/first-render';
import { renderWithClient } from '@/testing/test-utils';

import { useFrameworkStore } from '../stores/framework-store';

import { InsuranceFramework } from './insurance-framework';

afterEach(() => {
  useFrameworkStore.getState().reset();
  sessionStorage.clear();
  vi.restoreAllMocks();
});

function renderFramework() {
  return renderWithClient(<InsuranceFramework />, { path: '/demo/insurance-framework' });
}

/** The table's body rows as [insurance, required, value, buyer]. */
function tableRows() {
  const table = screen.getByRole('table', { name: 'Insurances for your project' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => {
      const [required, value, buyer] = within(row).getAllByRole('cell');
      return [
        within(row).getByRole('rowheader').textContent,
        required!.textContent,
        value!.textContent,
        buyer!.textContent,
      ];
    });
}

/** The recommended limit shown for a term, e.g. 'at least £5,000,000'. */
function limit(term: string) {
  const limits = screen.getByRole('region', { name: 'Recommended limits' });
  return within(limits).getByText(term).nextElementSibling?.textContent;
}

async function typeAmount(user: ReturnType<typeof userEvent.setup>, name: RegExp, text: string) {
  const field = screen.getByRole('textbox', { name });
  await user.clear(field);
  await user.type(field, `${text}{Enter}`);
}

describe('InsuranceFramework', () => {
  describe('given the default project (£500,000 contract value)', () => {
    it('should recommend at least £5m PI, £2m PL and £10m EL', async () => {
      renderFramework();

      expect(
        await screen.findByRole('heading', { level: 1, name: 'Insurance Framework' }),
      ).toBeInTheDocument();
      expect(limit('Professional indemnity (PI)')).toBe('at least £5,000,000');
      expect(limit('Public liability (PL)')).toBe('£2,000,000');
      expect(limit('Employers liability (EL)')).toBe('£10,000,000');
    });

    it('should show the 15 insurances under the columns Insurance, Required, Value, Buyer and Notes', async () => {
      renderFramework();
      const table = await screen.findByRole('table', { name: 'Insurances for your project' });

      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((header) => header.textContent),
      ).toEqual(['Insurance', 'Required', 'Value', 'Buyer', 'Notes']);
      expect(tableRows()).toHaveLength(15);
      expect(tableRows()[0]).toEqual([
        'Contractors all risks (contract works)',
        'Required',
        '£500,000',
        'Either or Joint Policy',
      ]);
    });
  });

  describe('when the contract value becomes £6,000,000 with the developer as contractor', () => {
    it('should update the limits and the rows at once', async () => {
      const user = userEvent.setup();
      renderFramework();
      await screen.findByRole('table', { name: 'Insurances for your project' });

      await typeAmount(user, /^Contract value.*exact amount/, '£6m');
      await user.selectOptions(screen.getByLabelText('Contractor'), 'Developer as contractor');

      expect(limit('Professional indemnity (PI)')).toBe('£10,000,000');
      expect(limit('Public liability (PL)')).toBe('£10,000,000');
      const rows = tableRows();
      expect(rows[0]).toEqual([
        'Contractors all risks (contract works)',
        'Required',
        '£6,000,000',
        'Property Developer',
      ]);
      expect(rows[13]).toEqual(['Performance bond', 'Recommended', '£600,000', 'Not required']);
    });
  });

  describe('when the scheme is a conversion with a basement', () => {
    it('should say the figures are for the amount last accepted while a typed amount is refused', async () => {
      const user = userEvent.setup();
      renderFramework();
      await screen.findByRole('table', { name: 'Insurances for your project' });
      await typeAmount(user, /^Gross development value.*exact amount/, '30,000,000');
      const unsold = () => tableRows().find(([insurance]) => insurance?.startsWith('Completed'));
      expect(unsold()?.[2]).toBe('£30,000,000');
      const notice = /for the amounts last accepted/;
      expect(screen.queryByText(notice)).not.toBeInTheDocument();

      await typeAmount(user, /^Gross development value.*exact amount/, '1');

      expect(screen.getByText(notice)).toBeInTheDocument();
      expect(unsold()?.[2]).toBe('£30,000,000');

      await typeAmount(user, /^Gross development value.*exact amount/, '£12m');

      expect(screen.queryByText(notice)).not.toBeInTheDocument();
      expect(unsold()?.[2]).toBe('£12,000,000');
    });

    it('should require existing structures cover and non-negligent liability', async () => {
      const user = userEvent.setup();
      renderFramework();
      await screen.findByRole('table', { name: 'Insurances for your project' });
      expect(tableRows()[1]?.slice(0, 3)).toEqual([
        'Existing structures (JCT option C)',
        'Not required',
        '—None',
      ]);

      await user.selectOptions(screen.getByLabelText('Development type'), 'Conversion');
      await typeAmount(user, /^Reinstatement value.*exact amount/, '2,000,000');
      await user.click(screen.getByRole('switch', { name: 'The scheme has a basement' }));

      const rows = tableRows();
      expect(rows[1]?.slice(0, 3)).toEqual([
        'Existing structures (JCT option C)',
        'Required',
        '£2,000,000',
      ]);
      expect(rows[5]?.slice(0, 2)).toEqual(['Non-negligent liability (JCT 6.5.1)', 'Required']);
    });
  });

  describe('given notes longer than two lines', () => {
    it('should offer Show more, expand with aria-expanded, and collapse again with Show less', async () => {
      const user = userEvent.setup();
      // jsdom lays nothing out: make every clamped note taller than its two-line box.
      vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(120);
      vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(40);
      renderFramework();
      await screen.findByRole('table', { name: 'Insurances for your project' });

      const buttons = screen.getAllByRole('button', { name: 'Show more' });
      expect(buttons).toHaveLength(15);
      const first = buttons[0]!;
      const notes = document.getElementById(first.getAttribute('aria-controls')!)!;
      expect(first).toHaveAttribute('aria-expanded', 'false');
      expect(notes).toHaveAttribute('data-state', 'clamped');
      expect(first).toHaveAccessibleDescription('Contractors all risks (contract works)');

      await user.click(first);

      expect(first).toHaveAttribute('aria-expanded', 'true');
      expect(first).toHaveTextContent('Show less');
      expect(notes).toHaveAttribute('data-state', 'expanded');

      await user.click(first);

      expect(first).toHaveAttribute('aria-expanded', 'false');
      expect(notes).toHaveAttribute('data-state', 'clamped');
    });
  });

  describe('given notes that fit in two lines', () => {
    it('should show no Show more button', async () => {
      vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(40);
      vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(40);
      renderFramework();
      await screen.findByRole('table', { name: 'Insurances for your project' });

      expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
    });
  });

  describe('when the user leaves and comes back', () => {
    it('should keep the selections', async () => {
      const user = userEvent.setup();
      const first = renderFramework();
      await user.selectOptions(await screen.findByLabelText('Scheme location'), 'Green');
      first.unmount();

      renderFramework();

      expect(await screen.findByLabelText('Scheme location')).toHaveValue('Green');
    });
  });
});

// Found by the fifteenth session's accessibility probe: the recommended limits were a live region that read out
// bare amounts ("£10,000,000, £10,000,000") beside the slider's own value, with nothing saying which limit changed.
describe('InsuranceFramework, what a screen reader is told', () => {
  it('should say the recommended limits with their names, once they change', async () => {
    const user = userEvent.setup();
    renderFramework();
    await screen.findByRole('textbox', { name: /^Contract value.*exact amount/ });
    const statuses = () => screen.getAllByRole('status').map((status) => status.textContent);
    expect(statuses().filter((text) => text?.startsWith('Recommended limits'))).toEqual([]);

    await typeAmount(user, /^Contract value.*exact amount/, '£6m');
    await waitFor(() =>
      expect(statuses()).toContain(
        `Recommended limits: professional indemnity ${limit('Professional indemnity (PI)')}, public liability ${limit('Public liability (PL)')}, employers liability ${limit('Employers liability (EL)')}.`,
      ),
    );
    expect(
      screen
        .getByRole('region', { name: 'Recommended limits' })
        .closest('[aria-live], [role="status"]'),
    ).toBeNull();
  });
});

// Found by the fifteenth session's portal probe: the framework's selections had no owner, so the next user of
// the tab (on this client or another) saw the previous user's contract value and GDV from the first render.
describe('InsuranceFramework for the next user of the tab', () => {
  it("should not render the previous user's selections, even before they are reset", async () => {
    const user = userEvent.setup();
    const first = renderFramework();
    await screen.findByRole('textbox', { name: /^Contract value.*exact amount/ });
    await typeAmount(user, /^Contract value.*exact amount/, '12,345,000');
    expect(screen.getByRole('textbox', { name: /^Contract value.*exact amount/ })).toHaveValue(
      '£12,345,000',
    );
    first.unmount();

    const { FirstRenderProbe, seen: firstRender } = firstRenderProbe(() => document.body.innerHTML);
    renderWithClient(
      <>
        <FirstRenderProbe />
        <InsuranceFramework />
      </>,
      {
        path: '/demo/insurance-framework',
        client: makeClient({ first_name: 'Grace', email: 'grace@example.com' }),
      },
    );
    const field = await screen.findByRole('textbox', { name: /^Contract value.*exact amount/ });
    expect(field).not.toHaveValue('£12,345,000');
    expect(firstRender).toHaveLength(1);
    expect(firstRender[0]).not.toContain('12,345,000');
  });

  it('should keep the same user’s selections when they come back to the page', async () => {
    const user = userEvent.setup();
    const first = renderFramework();
    await screen.findByRole('textbox', { name: /^Contract value.*exact amount/ });
    await typeAmount(user, /^Contract value.*exact amount/, '12,345,000');
    first.unmount();
    renderFramework();
    expect(
      await screen.findByRole('textbox', { name: /^Contract value.*exact amount/ }),
    ).toHaveValue('£12,345,000');
  });
});
