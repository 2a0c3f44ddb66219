import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { RATE_TABLE_VERSION } from '@firm/pricing';

import { jsonResponse } from '@/testing/fixtures';
import { mockCalculatorFetch, renderCalculator } from '@/testing/render-calculator';

import { useContractorsAllRisksStore } from '../stores/contractors-all-risks-store';

import { RATES_CHANGED_MESSAGE } from './submission-status';

const fetchMock = mockCalculatorFetch();

function postsTo(path: string) {
  return fetchMock.mock.calls.filter(([url]) => url === path) as [string, RequestInit][];
}

function keyOf([, init]: [string, RequestInit]) {
  return new Headers(init.headers).get('idempotency-key');
}

function bodyOf([, init]: [string, RequestInit]) {
  return JSON.parse(String(init.body)) as Record<string, unknown>;
}

/** Answers the posts to `/api/demo/car` with `answers` in turn, and every other call with a 204. */
function answering(...answers: (() => Response)[]) {
  fetchMock.mockImplementation(async (url) =>
    url === '/api/demo/car'
      ? (answers.shift() ?? (() => jsonResponse({ error: 'No more answers' }, { status: 500 })))()
      : new Response(null, { status: 204 }),
  );
}

const created = (reference: string) => () =>
  jsonResponse({ reference, quote: { rateTableVersion: RATE_TABLE_VERSION } }, { status: 201 });

describe('ContractorsAllRisksCalculator', () => {
  describe('when Calculate is pressed with the telephone emptied', () => {
    it('should highlight it and post nothing', async () => {
      const user = userEvent.setup();
      renderCalculator('contractors all risks');
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
          ? jsonResponse(
              { reference: 'CAR-2026-000001', quote: { rateTableVersion: RATE_TABLE_VERSION } },
              { status: 201 },
            )
          : new Response(null, { status: 204 }),
      );
      renderCalculator('contractors all risks');
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

  // Found by the eighteenth session's portal probe: Try again after a failed post re-sent the details as they were
  // when it failed, under the old key, while the form (and "Our team has your details" beside it) showed the
  // telephone corrected since; Calculate did post the new one.
  describe('when the contact details are changed after a failed post and Try again is pressed', () => {
    it('should post the details shown, as a new submission under a new key', async () => {
      const user = userEvent.setup();
      answering(
        () => jsonResponse({ error: 'Service unavailable' }, { status: 503 }),
        created('CAR-2026-000002'),
      );
      renderCalculator('contractors all risks');
      await user.click(await screen.findByRole('button', { name: 'Calculate' }));
      expect(await screen.findByText('Your details did not reach our team.')).toBeInTheDocument();

      const telephone = screen.getByLabelText('Telephone');
      await user.clear(telephone);
      await user.type(telephone, '020 7946 0000');
      await user.click(screen.getByRole('button', { name: 'Try again' }));

      expect(await screen.findByText('Your reference: CAR-2026-000002')).toBeInTheDocument();
      const posts = postsTo('/api/demo/car');
      expect(posts).toHaveLength(2);
      expect(bodyOf(posts[0]!).telephone).toBe('07700 900123');
      expect(bodyOf(posts[1]!).telephone).toBe('020 7946 0000');
      expect(keyOf(posts[1]!)).not.toBe(keyOf(posts[0]!));
      // What is kept for the reference is what was sent, and what the form shows.
      const kept = useContractorsAllRisksStore.getState().submission;
      expect(kept.status === 'sent' && kept.body.telephone).toBe('020 7946 0000');
    });

    it('should point at a contact field left empty, and post nothing', async () => {
      const user = userEvent.setup();
      answering(() => jsonResponse({ error: 'Service unavailable' }, { status: 503 }));
      renderCalculator('contractors all risks');
      await user.click(await screen.findByRole('button', { name: 'Calculate' }));
      expect(await screen.findByText('Your details did not reach our team.')).toBeInTheDocument();

      await user.clear(screen.getByLabelText('Telephone'));
      await user.click(screen.getByRole('button', { name: 'Try again' }));

      expect(screen.getByLabelText('Telephone')).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByLabelText('Telephone')).toHaveFocus();
      expect(postsTo('/api/demo/car')).toHaveLength(1);
    });

    it('should send the same details under the same key when nothing was changed', async () => {
      const user = userEvent.setup();
      fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
      renderCalculator('contractors all risks');
      await user.click(await screen.findByRole('button', { name: 'Calculate' }));
      expect(
        await screen.findByText('We could not confirm that your details reached our team.'),
      ).toBeInTheDocument();

      answering(created('CAR-2026-000003'));
      await user.click(screen.getByRole('button', { name: 'Try again' }));

      expect(await screen.findByText('Your reference: CAR-2026-000003')).toBeInTheDocument();
      const posts = postsTo('/api/demo/car');
      expect(posts).toHaveLength(2);
      expect(keyOf(posts[1]!)).toBe(keyOf(posts[0]!));
      expect(posts[1]![1].body).toBe(posts[0]![1].body);
    });
  });

  // Found by the eighteenth session's portal probe: a 200 of another server (a captive portal's sign-in page) or
  // JSON without the reference showed "Your reference: undefined. Our team has your details…".
  describe('when the post is answered by something that is not the API', () => {
    it.each([
      [
        'a captive portal’s page',
        () =>
          new Response('<html><body>Sign in to the Wi-Fi</body></html>', {
            status: 200,
            headers: { 'content-type': 'text/html' },
          }),
      ],
      [
        'JSON without the reference',
        () => jsonResponse({ quote: { rateTableVersion: RATE_TABLE_VERSION } }, { status: 201 }),
      ],
      // Found by the twentieth session's portal probe: the reference alone was taken as the API's answer.
      [
        'JSON without the quote',
        () => jsonResponse({ reference: 'CAR-2026-000003' }, { status: 201 }),
      ],
    ])(
      'should say it could not confirm the details reached the team, and try again under the same key: %s',
      async (_, answer) => {
        const user = userEvent.setup();
        answering(answer, created('CAR-2026-000004'));
        renderCalculator('contractors all risks');
        await user.click(await screen.findByRole('button', { name: 'Calculate' }));

        expect(
          await screen.findByText('We could not confirm that your details reached our team.'),
        ).toBeInTheDocument();
        expect(screen.getByText(/Our server's answer could not be read\./)).toBeInTheDocument();
        expect(screen.queryByText(/Your reference/)).not.toBeInTheDocument();
        expect(screen.queryByText(/Our team has your details/)).not.toBeInTheDocument();

        await user.click(screen.getByRole('button', { name: 'Try again' }));
        expect(await screen.findByText('Your reference: CAR-2026-000004')).toBeInTheDocument();
        const posts = postsTo('/api/demo/car');
        expect(posts).toHaveLength(2);
        expect(keyOf(posts[1]!)).toBe(keyOf(posts[0]!));
        // Only a confirmed submission is recorded as one.
        await waitFor(() => expect(postsTo('/api/demo/activity')).toHaveLength(1));
      },
    );
  });

  // Found by the twentieth session's portal probe: the screen confirmed its own figures whatever quote the team had.
  it('should say the team’s figures may differ when its quote was made with other rates', async () => {
    const user = userEvent.setup();
    answering(() =>
      jsonResponse(
        { reference: 'CAR-2026-000005', quote: { rateTableVersion: 'an-older-table' } },
        { status: 201 },
      ),
    );
    renderCalculator('contractors all risks');
    await user.click(await screen.findByRole('button', { name: 'Calculate' }));
    expect(await screen.findByText('Your reference: CAR-2026-000005')).toBeInTheDocument();
    expect(screen.getByText(RATES_CHANGED_MESSAGE)).toBeInTheDocument();
    // Kept as the version the team's quote was made with: a page of those rates would no longer say so (found by
    // the twentieth session's probe of its own changes: the note outlived the reload it asks for).
    expect(useContractorsAllRisksStore.getState().submission).toMatchObject({
      quotedWith: 'an-older-table',
    });
  });

  it('should not say so when the team’s quote was made with the page’s own rates', async () => {
    const user = userEvent.setup();
    answering(created('CAR-2026-000006'));
    renderCalculator('contractors all risks');
    await user.click(await screen.findByRole('button', { name: 'Calculate' }));
    expect(await screen.findByText('Your reference: CAR-2026-000006')).toBeInTheDocument();
    expect(screen.queryByText(RATES_CHANGED_MESSAGE)).not.toBeInTheDocument();
  });
});
