import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ApiError, UnreadableAnswerError } from '@/lib/api-client';
import { HIDDEN_CHARACTERS_MESSAGE } from '@/lib/text';
import { renderWithClient } from '@/testing/test-utils';

import { submitDueDiligence } from '../api/submit-due-diligence';
import { useDueDiligenceDraft } from '../stores/draft-store';
import { UNREADABLE_CHARACTERS_MESSAGE } from '../validation';

import { DueDiligenceForm } from './due-diligence-form';

vi.mock('../api/submit-due-diligence', () => ({ submitDueDiligence: vi.fn() }));
const submit = vi.mocked(submitDueDiligence);

beforeEach(() => {
  useDueDiligenceDraft.getState().clear();
});

afterEach(() => {
  submit.mockReset();
});

function renderForm() {
  const onSubmitted = vi.fn();
  const result = renderWithClient(
    <DueDiligenceForm
      prefix="demo"
      user={{ email: 'ada@example.com', fullName: 'Ada Lovelace' }}
      onSubmitted={onSubmitted}
    />,
    { path: '/demo/due-diligence' },
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

describe('DueDiligenceForm when the request fails', () => {
  it.each([
    [
      429,
      'Too many due diligence requests in an hour. Please try again later, or e-mail the team.',
    ],
    [
      507,
      'The portal cannot store this just now: its storage is nearly full. Please try again later.',
    ],
  ])(
    "should show the API's %i message, move keyboard focus to it and keep the draft",
    async (status, text) => {
      const user = userEvent.setup();
      submit.mockRejectedValueOnce(new ApiError(status, text));
      renderForm();
      await fillAndSend(user);

      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent(text);
      await waitFor(() => expect(alert).toHaveFocus());
      expect(screen.getByLabelText('Project name')).toHaveValue('Harbour Quay');
      expect(screen.getByRole('button', { name: 'Submit request' })).toBeEnabled();
    },
  );
});

// Found by the thirtieth session's portal probe: an answer that could not be read (another server's 200 page) said
// only so, where a calculator says the team may have the details and will not get them twice.
describe('DueDiligenceForm when the answer cannot be read', () => {
  it('should say the request may have arrived and that sending again sends it once', async () => {
    const user = userEvent.setup();
    submit.mockRejectedValueOnce(new UnreadableAnswerError(200));
    renderForm();
    await fillAndSend(user);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      "Our server's answer could not be read. Please try again: if your request did reach our team, they will not get it twice.",
    );
    expect(screen.getByLabelText('Project name')).toHaveValue('Harbour Quay');
  });
});

// Found by a black-box probe: the API's refusal of a field was shown under the file picker in its own words,
// naming the form service's field (`The field "SingleLine" (Project name) is too long.`), the field not marked.
describe('DueDiligenceForm when the API refuses a field', () => {
  it.each([
    [
      'The field "SingleLine" (Project name) is too long.',
      'Project name',
      'Shorten this field (it has 12 characters)',
    ],
    [
      'The field "SingleLine1" (Project address) must not hold control characters or invisible text-direction marks.',
      'Project address',
      HIDDEN_CHARACTERS_MESSAGE,
    ],
    [
      'The field "SingleLine2" contains a NUL character.',
      'City and postcode',
      HIDDEN_CHARACTERS_MESSAGE,
    ],
    [
      'The field "SingleLine3" (Project description) is not valid UTF-8 text.',
      'Project description',
      UNREADABLE_CHARACTERS_MESSAGE,
    ],
    [
      'Missing required field "SingleLine1" (Project address).',
      'Project address',
      'Enter the project address',
    ],
    [
      'The field "SingleLine2" (City and postcode) must be sent as text, not as a file.',
      'City and postcode',
      'City and postcode must be sent as text, not as a file.',
    ],
  ])('should show %j at the field, in the form’s words', async (apiMessage, label, message) => {
    const user = userEvent.setup();
    submit.mockRejectedValueOnce(new ApiError(400, apiMessage));
    renderForm();
    await fillAndSend(user);

    const field = screen.getByLabelText(label);
    await waitFor(() => expect(field).toHaveFocus());
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(message);
    expect(screen.getByRole('alert')).toHaveTextContent('Please correct the highlighted fields.');
    expect(screen.queryByText(apiMessage)).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/SingleLine/);

    // Changed, the field is no longer marked; the request can be sent again.
    await user.type(field, 'x');
    expect(field).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    submit.mockResolvedValueOnce(undefined);
    await user.click(screen.getByRole('button', { name: 'Submit request' }));
    expect(submit).toHaveBeenCalledTimes(2);
  });

  it('should say which amount it refused, by its label, in the alert', async () => {
    const user = userEvent.setup();
    submit.mockRejectedValueOnce(
      new ApiError(
        400,
        'The field "Currency2" (GDV) must be a whole number of pounds, like 12500000.',
      ),
    );
    renderForm();
    await fillAndSend(user);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Gross development value (GDV) must be a whole number of pounds, like 12500000.',
    );
    await waitFor(() => expect(alert).toHaveFocus());
  });

  it('should show a message that names no field as the API says it', async () => {
    const user = userEvent.setup();
    submit.mockRejectedValueOnce(new ApiError(400, 'Too many fields in the form.'));
    renderForm();
    await fillAndSend(user);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Too many fields in the form.');
    await waitFor(() => expect(alert).toHaveFocus());
    expect(screen.getByLabelText('Project name')).not.toHaveAttribute('aria-invalid');
  });
});

describe('DueDiligenceForm sending a request again', () => {
  const keyOf = (call: number) => submit.mock.calls[call]?.[2]?.idempotencyKey;

  it('should send the same request under the same Idempotency-Key, and a changed one under a new key', async () => {
    const user = userEvent.setup();
    // The first answer never arrives (the request may have been stored): the user sends it again.
    submit.mockRejectedValueOnce(
      new Error('Your request could not be sent: the connection to our server failed.'),
    );
    submit.mockRejectedValueOnce(new ApiError(507, 'Nearly full.'));
    submit.mockResolvedValueOnce(undefined);
    const { onSubmitted } = renderForm();
    await fillAndSend(user);
    await screen.findByRole('alert');
    await user.click(screen.getByRole('button', { name: 'Submit request' }));
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(2));
    expect(keyOf(0)).toMatch(/^[0-9a-f]{32}$/);
    expect(keyOf(1)).toBe(keyOf(0));

    // A changed request is a new one.
    await user.type(screen.getByLabelText('Project name'), ' II');
    await user.click(screen.getByRole('button', { name: 'Submit request' }));
    await waitFor(() => expect(onSubmitted).toHaveBeenCalled());
    expect(keyOf(2)).toMatch(/^[0-9a-f]{32}$/);
    expect(keyOf(2)).not.toBe(keyOf(0));
    // Stored: the next request starts with a new key.
    expect(useDueDiligenceDraft.getState().pending).toBeNull();
  });

  it('should keep the key with the draft across a reload of the tab', () => {
    const store = useDueDiligenceDraft.getState();
    const key = store.keyFor('["same request"]');
    expect(store.keyFor('["same request"]')).toBe(key);
    const saved = JSON.parse(sessionStorage.getItem('due-diligence:draft') ?? '{}') as {
      state?: { pending?: unknown };
    };
    expect(saved.state?.pending).toEqual({ key, fingerprint: '["same request"]' });
    expect(store.keyFor('["another request"]')).not.toBe(key);
  });
});

describe('DueDiligenceForm when the page is left mid-upload', () => {
  it('should cancel the upload and never report it as submitted from another page', async () => {
    const user = userEvent.setup();
    let signal: AbortSignal | undefined;
    let finish: () => void = () => {};
    submit.mockImplementationOnce((_prefix, _request, options) => {
      signal = options?.signal;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    const { onSubmitted, unmount } = renderForm();
    await fillAndSend(user);
    expect(submit).toHaveBeenCalledTimes(1);

    unmount();
    expect(signal?.aborted).toBe(true);
    finish();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(onSubmitted).not.toHaveBeenCalled();
    // The draft is kept for when the user comes back.
    expect(useDueDiligenceDraft.getState().draft.projectName).toBe('Harbour Quay');
  });
});

// Found by the sixteenth session's accessibility probe: after a Submit with empty fields, the request that then
// worked emptied the form for the thank-you page with the fields still marked missing, and the alert "Please
// fill in the highlighted fields." was inserted (and read) over a request that had been received.
describe('DueDiligenceForm sent after a first try with empty fields', () => {
  it('should never mark the fields missing again once everything is filled in', async () => {
    const user = userEvent.setup();
    let answer: () => void = () => undefined;
    submit.mockReturnValueOnce(
      new Promise((resolve) => {
        answer = () => resolve(undefined as never);
      }),
    );
    const { onSubmitted } = renderForm();
    await user.click(await screen.findByRole('button', { name: 'Submit request' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in the highlighted fields.');

    // Every alert and every field marked invalid from here on, recorded as the DOM changes.
    const seen: string[] = [];
    const observer = new MutationObserver(() => {
      for (const alert of document.querySelectorAll('[role="alert"]')) {
        seen.push(alert.textContent ?? '');
      }
      if (document.querySelector('[aria-invalid="true"]')) seen.push('aria-invalid');
    });
    await fillAndSend(user);
    observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    answer();
    await waitFor(() => expect(onSubmitted).toHaveBeenCalled());
    observer.disconnect();
    expect(seen).toEqual([]);
  });
});
