import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ApiError } from '@/lib/api-client';
import { firstRenderProbe } from '@/testing/first-render';
import { renderWithClient } from '@/testing/test-utils';

import { submitDueDiligence } from '../api/submit-due-diligence';
import { EMPTY_DRAFT, useDueDiligenceDraft } from '../stores/draft-store';

import { DueDiligenceForm } from './due-diligence-form';

vi.mock('../api/submit-due-diligence', () => ({ submitDueDiligence: vi.fn() }));
const submit = vi.mocked(submitDueDiligence);

beforeEach(() => {
  useDueDiligenceDraft.getState().clear();
});

afterEach(() => {
  submit.mockReset();
});

function renderForm(email = 'ada@example.com') {
  return renderWithClient(
    <DueDiligenceForm
      prefix="demo"
      user={{ email, fullName: 'Ada Lovelace' }}
      onSubmitted={vi.fn()}
    />,
    { path: '/demo/due-diligence' },
  );
}

describe('DueDiligenceForm when the session has ended', () => {
  it('should offer Log in again under the message, and keep the draft in the tab', async () => {
    const user = userEvent.setup();
    submit.mockRejectedValueOnce(new ApiError(401, 'You are not logged in. Please log in again.'));
    renderForm();
    await user.type(await screen.findByLabelText('Project name'), 'Harbour Quay');
    await user.type(screen.getByLabelText('Project address'), '1 Quay Street');
    await user.type(screen.getByLabelText('City and postcode'), 'Bristol BS1 4XX');
    await user.type(screen.getByLabelText('Project description'), 'Forty-two flats.');
    await user.click(screen.getByRole('button', { name: 'Submit request' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You are not logged in. Please log in again.',
    );
    expect(screen.getByRole('link', { name: 'Log in again' })).toHaveAttribute(
      'href',
      '/demo/login',
    );
    // Logging in again is a fresh page load: the draft must be in sessionStorage, not only in memory.
    const stored = JSON.parse(sessionStorage.getItem('due-diligence:draft') ?? '{}') as {
      state?: { owner?: string; draft?: { projectName?: string } };
    };
    expect(stored.state?.owner).toBe('demo/ada@example.com');
    expect(stored.state?.draft?.projectName).toBe('Harbour Quay');
  });

  it('should not show a draft left in the tab by another user', async () => {
    renderForm('ada@example.com');
    await userEvent.setup().type(await screen.findByLabelText('Project name'), 'Harbour Quay');
    cleanup();

    renderForm('bob@example.com');
    expect(await screen.findByLabelText('Project name')).toHaveValue('');
  });

  // The DOM of the first render, read by a layout effect that runs before the form's own (the claim): another
  // user's draft left in the tab must not be in it at all, while the same user's is.
  it.each([
    ['bob@example.com', ''],
    ['ada@example.com', 'Harbour Quay'],
  ])(
    'should first render the draft left by demo/ada@example.com for %s as "%s"',
    (email, shown) => {
      useDueDiligenceDraft.setState({
        owner: 'demo/ada@example.com',
        draft: { ...EMPTY_DRAFT, projectName: 'Harbour Quay' },
      });
      const { FirstRenderProbe, seen: firstValues } = firstRenderProbe(
        () =>
          document.querySelector<HTMLInputElement>('input[data-field="projectName"]')?.value ??
          'no field',
      );
      renderWithClient(
        <>
          <FirstRenderProbe />
          <DueDiligenceForm
            prefix="demo"
            user={{ email, fullName: 'Ada Lovelace' }}
            onSubmitted={vi.fn()}
          />
        </>,
        { path: '/demo/due-diligence' },
      );
      return screen.findByLabelText('Project name').then((field) => {
        expect(firstValues).toEqual([shown]);
        expect(field).toHaveValue(shown);
      });
    },
  );
});
