import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { renderWithClient } from '@/testing/test-utils';

import { submitDueDiligence } from '../api/submit-due-diligence';
import { useDueDiligenceDraft } from '../stores/draft-store';

import { DueDiligenceForm, LEAVE_WHILE_SENDING } from './due-diligence-form';

vi.mock('../api/submit-due-diligence', () => ({ submitDueDiligence: vi.fn() }));
const submit = vi.mocked(submitDueDiligence);
const confirm = vi.fn<(message?: string) => boolean>();

beforeEach(() => {
  useDueDiligenceDraft.getState().clear();
  vi.stubGlobal('confirm', confirm);
});

afterEach(() => {
  submit.mockReset();
  confirm.mockReset();
  vi.unstubAllGlobals();
});

function renderForm() {
  const onSubmitted = vi.fn();
  const result = renderWithClient(
    <DueDiligenceForm
      prefix="demo"
      user={{ email: 'ada@example.com', fullName: 'Ada Lovelace' }}
      onSubmitted={() => {
        onSubmitted();
        void result.router.navigate('/demo/due-diligence?success=1');
      }}
    />,
    { path: '/demo/due-diligence', routes: [{ path: 'dashboard', element: <p>Dashboard</p> }] },
  );
  return { ...result, onSubmitted };
}

async function fillAndSend(user: UserEvent) {
  await user.type(await screen.findByLabelText('Project name'), 'Harbour Quay');
  await user.type(screen.getByLabelText('Project address'), '1 Quay Street');
  await user.type(screen.getByLabelText('City and postcode'), 'Bristol BS1 4XX');
  await user.type(screen.getByLabelText('Project description'), 'Forty-two flats.');
  await user.click(screen.getByRole('button', { name: 'Submit request' }));
}

/** Whether the browser would ask before unloading the page now. */
function asksBeforeUnload(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

// Found by the nineteenth session's portal probe: Back pressed mid-upload cancelled the request without a word
// (and showed an earlier request's thank-you page); a closed tab lost it with the draft.
describe('DueDiligenceForm when the page is left while the request is on its way', () => {
  it('should ask first, stay when told to, and leave (cancelling the upload) when told to', async () => {
    const user = userEvent.setup();
    let signal: AbortSignal | undefined;
    submit.mockImplementation((_prefix, _request, options) => {
      signal = options?.signal;
      return new Promise(() => {});
    });
    const { router } = renderForm();
    expect(asksBeforeUnload()).toBe(false);
    await fillAndSend(user);
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect(asksBeforeUnload()).toBe(true);

    confirm.mockReturnValueOnce(false);
    await act(() => router.navigate('/demo/dashboard'));
    await waitFor(() => expect(confirm).toHaveBeenCalledWith(LEAVE_WHILE_SENDING));
    expect(router.state.location.pathname).toBe('/demo/due-diligence');
    expect(signal?.aborted).toBe(false);

    confirm.mockReturnValueOnce(true);
    await act(() => router.navigate('/demo/dashboard'));
    expect(await screen.findByText('Dashboard')).toBeInTheDocument();
    expect(signal?.aborted).toBe(true);
    expect(asksBeforeUnload()).toBe(false);
  });

  it('should go to the thank-you page without asking once the request is received', async () => {
    const user = userEvent.setup();
    submit.mockResolvedValue(undefined);
    const { router, onSubmitted } = renderForm();
    await fillAndSend(user);
    await waitFor(() => expect(onSubmitted).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(router.state.location.search).toBe('?success=1'));
    expect(confirm).not.toHaveBeenCalled();
    expect(asksBeforeUnload()).toBe(false);
  });
});
