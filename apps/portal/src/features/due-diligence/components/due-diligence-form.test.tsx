import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { HIDDEN_CHARACTERS_MESSAGE } from '@/lib/text';
import { renderWithClient } from '@/testing/test-utils';

import { TIMED_OUT_MESSAGE, toFormData } from '../api/submit-due-diligence';
import { EMPTY_DRAFT, useDueDiligenceDraft } from '../stores/draft-store';
import { HIDDEN_CONTROLS_MESSAGE, UNREADABLE_CHARACTERS_MESSAGE } from '../validation';

import { DueDiligenceForm, EMPTY_FILE_MESSAGE } from './due-diligence-form';

const send = vi.fn();

beforeEach(() => {
  useDueDiligenceDraft.getState().clear();
  vi.spyOn(XMLHttpRequest.prototype, 'send').mockImplementation(send);
});

afterEach(() => {
  send.mockReset();
  vi.restoreAllMocks();
});

function renderForm() {
  const onSubmitted = vi.fn();
  renderWithClient(
    <DueDiligenceForm
      prefix="demo"
      user={{ email: 'ada@example.com', fullName: 'Ada Lovelace' }}
      onSubmitted={onSubmitted}
    />,
    { path: '/demo/due-diligence' },
  );
  return { onSubmitted };
}

/** Types every required field. */
async function fillRequired(user: UserEvent) {
  await user.type(await screen.findByLabelText('Project name'), 'Harbour Quay');
  await user.type(screen.getByLabelText('Project address'), '1 Quay Street');
  await user.type(screen.getByLabelText('City and postcode'), 'Bristol BS1 4XX');
  await user.type(screen.getByLabelText('Project description'), 'Forty-two flats.');
}

describe('DueDiligenceForm', () => {
  // Found by the fifteenth session's portal probe: with "£75m" refused in Build cost (over the £50m the slider
  // takes), Submit request sent the last accepted amount (£500,000) and thanked the user.
  describe('when submitted with a typed amount the field refused', () => {
    it('should send nothing and focus the amount to fix', async () => {
      const user = userEvent.setup();
      renderForm();
      await fillRequired(user);
      const buildCost = screen.getByRole('textbox', { name: /^Build cost/ });
      await user.clear(buildCost);
      await user.type(buildCost, '£75m');
      await user.tab();
      expect(buildCost).toHaveAttribute('aria-invalid', 'true');

      await user.click(screen.getByRole('button', { name: 'Submit request' }));
      expect(send).not.toHaveBeenCalled();
      expect(buildCost).toHaveFocus();

      // Corrected, the request goes.
      await user.clear(buildCost);
      await user.type(buildCost, '£7.5m');
      await user.tab();
      expect(buildCost).not.toHaveAttribute('aria-invalid');
      await user.click(screen.getByRole('button', { name: 'Submit request' }));
      expect(send).toHaveBeenCalledTimes(1);
      const body = send.mock.calls[0]![0] as FormData;
      expect(body.get('Currency1')).toBe('7500000');
    });
  });

  describe('when submitted with required fields empty', () => {
    it('should highlight exactly the empty ones, focus the first and send nothing', async () => {
      const user = userEvent.setup();
      renderForm();
      await user.type(await screen.findByLabelText('Project name'), 'Harbour Quay');
      await user.type(screen.getByLabelText('City and postcode'), '   ');
      await user.click(screen.getByRole('button', { name: 'Submit request' }));

      expect(screen.getByLabelText('Project name')).not.toHaveAttribute('aria-invalid');
      expect(screen.getByLabelText('Project address')).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByLabelText('City and postcode')).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByLabelText('Project description')).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByLabelText('Project address')).toHaveFocus();
      expect(send).not.toHaveBeenCalled();
    });

    it('should clear a highlight as soon as the field is filled in', async () => {
      const user = userEvent.setup();
      renderForm();
      await user.click(await screen.findByRole('button', { name: 'Submit request' }));
      await user.type(screen.getByLabelText('Project address'), '1 Quay Street');

      expect(screen.getByLabelText('Project address')).not.toHaveAttribute('aria-invalid');
      expect(screen.getByLabelText('Project name')).toHaveAttribute('aria-invalid', 'true');
    });
  });

  // Found by a black-box probe: nothing was checked before sending; a 201-character project name, zalgo text, a
  // lone surrogate or a direction mark came back from the API as `The field "SingleLine" (Project name) is too
  // long.` under the file picker, the field not marked.
  describe('when submitted with a text field the API would refuse', () => {
    /** Puts `text` into a field as a paste does (typing it key by key is slow, and cannot type half a character). */
    async function paste(user: UserEvent, label: string, text: string) {
      const field = screen.getByLabelText(label);
      await user.clear(field);
      await user.click(field);
      await user.paste(text);
      return field;
    }

    it.each([
      ['201 letters', 'a'.repeat(201), 'Use at most 200 characters (this has 201)'],
      ['zalgo text', `Z${'\u0336'.repeat(300)}`, 'Use at most 200 characters (this has 301)'],
      ['201 letters outside the BMP', '𝐀'.repeat(201), 'Use at most 200 characters (this has 201)'],
    ])(
      'should refuse a project name of %s at the field, saying the limit, and send nothing',
      async (_what, name, message) => {
        const user = userEvent.setup();
        renderForm();
        await fillRequired(user);
        const field = await paste(user, 'Project name', name);
        await user.click(screen.getByRole('button', { name: 'Submit request' }));

        expect(send).not.toHaveBeenCalled();
        expect(field).toHaveAttribute('aria-invalid', 'true');
        expect(field).toHaveAccessibleDescription(message);
        expect(field).toHaveFocus();
        expect(screen.getByRole('alert')).toHaveTextContent(
          'Please correct the highlighted fields.',
        );

        // Put right, the message goes at once and the request is sent.
        await paste(user, 'Project name', 'Harbour Quay');
        expect(field).not.toHaveAttribute('aria-invalid');
        expect(screen.queryByRole('alert')).not.toBeInTheDocument();
        await user.click(screen.getByRole('button', { name: 'Submit request' }));
        expect(send).toHaveBeenCalledTimes(1);
      },
    );

    it('should take 200 characters (counted as the API does, an emoji one) in the project name', async () => {
      const user = userEvent.setup();
      renderForm();
      await fillRequired(user);
      const name = `${'a'.repeat(199)}🏗`; // 201 UTF-16 code units, 200 characters
      await paste(user, 'Project name', name);
      await user.click(screen.getByRole('button', { name: 'Submit request' }));
      expect(send).toHaveBeenCalledTimes(1);
      expect((send.mock.calls[0]![0] as FormData).get('SingleLine')).toBe(name);
    });

    it.each([
      ['a lone surrogate', 'Harbour \uD83C Quay', UNREADABLE_CHARACTERS_MESSAGE],
      ['a right-to-left mark', 'Harbour\u200F Quay', HIDDEN_CHARACTERS_MESSAGE],
      ['a right-to-left override', '\u202EyauQ ruobraH', HIDDEN_CHARACTERS_MESSAGE],
      ['a NUL', 'Harbour\u0000Quay', HIDDEN_CHARACTERS_MESSAGE],
    ])('should refuse %s in the project name at the field', async (_what, name, message) => {
      const user = userEvent.setup();
      renderForm();
      await fillRequired(user);
      const field = await paste(user, 'Project name', name);
      await user.click(screen.getByRole('button', { name: 'Submit request' }));

      expect(send).not.toHaveBeenCalled();
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription(message);
      expect(field).toHaveFocus();
    });

    it('should take 5,000 characters of description with its line breaks counted as sent (CR LF), not 5,001', async () => {
      const user = userEvent.setup();
      renderForm();
      await fillRequired(user);
      const description = await paste(user, 'Project description', 'a'.repeat(5001));
      await user.click(screen.getByRole('button', { name: 'Submit request' }));
      expect(send).not.toHaveBeenCalled();
      expect(description).toHaveAccessibleDescription(
        'Use at most 5,000 characters (this has 5,001)',
      );

      // 4,999 letters and a line break: 5,001 characters as the browser sends them.
      await paste(user, 'Project description', `${'a'.repeat(2000)}\n${'b'.repeat(2999)}`);
      expect(description).toHaveAccessibleDescription(
        'Use at most 5,000 characters (this has 5,001; a line break counts as two)',
      );
      await paste(user, 'Project description', `${'a'.repeat(2000)}\n${'b'.repeat(2998)}`);
      expect(description).not.toHaveAttribute('aria-invalid');
      await user.click(screen.getByRole('button', { name: 'Submit request' }));
      expect(send).toHaveBeenCalledTimes(1);
    });

    it('should refuse a direction mark in the description, whose line breaks are fine', async () => {
      const user = userEvent.setup();
      renderForm();
      await fillRequired(user);
      const description = await paste(user, 'Project description', 'Flats\n\u2066Shops\u2069');
      await user.click(screen.getByRole('button', { name: 'Submit request' }));
      expect(send).not.toHaveBeenCalled();
      expect(description).toHaveAccessibleDescription(HIDDEN_CONTROLS_MESSAGE);
      expect(description).toHaveFocus();
    });

    it('should focus the first field to fix, in the form order, with each saying why', async () => {
      const user = userEvent.setup();
      renderForm();
      await user.type(await screen.findByLabelText('Project address'), '1 Quay Street');
      await paste(user, 'City and postcode', 'c'.repeat(201));
      await user.click(screen.getByRole('button', { name: 'Submit request' }));

      expect(send).not.toHaveBeenCalled();
      expect(screen.getByLabelText('Project name')).toHaveAccessibleDescription(
        'Enter the project name',
      );
      expect(screen.getByLabelText('Project name')).toHaveFocus();
      expect(screen.getByLabelText('Project address')).not.toHaveAttribute('aria-invalid');
      expect(screen.getByLabelText('City and postcode')).toHaveAccessibleDescription(
        'Use at most 200 characters (this has 201)',
      );
    });
  });

  it("should show 'Choose file (max 20Mb)' until a file is chosen", async () => {
    renderForm();
    expect(await screen.findByText('Choose file (max 20Mb)')).toBeInTheDocument();
  });

  it('should refuse an empty file before any upload, saying so, until another file is chosen', async () => {
    const user = userEvent.setup();
    renderForm();
    await fillRequired(user);
    const picker = screen.getByLabelText('Attach a document');
    await user.upload(picker, new File([], 'appraisal.pdf', { type: 'application/pdf' }));

    expect(screen.getByRole('alert')).toHaveTextContent(EMPTY_FILE_MESSAGE);
    expect(picker).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Submit request' }));
    expect(send).not.toHaveBeenCalled();
    expect(picker).toHaveFocus();

    await user.upload(picker, new File(['%PDF-1.4'], 'appraisal.pdf', { type: 'application/pdf' }));
    expect(screen.queryByText(EMPTY_FILE_MESSAGE)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit request' }));
    expect(send).toHaveBeenCalledTimes(1);
  });

  // Found by the twentieth session's portal probe: an empty file stayed in the picker with no way to take it away
  // (Firefox's and Safari's pickers keep a file on Cancel), so the form could not be sent; and the draft kept its
  // name, asking for it again after a reload.
  it('should send the form without a refused file once it is removed, and not keep its name', async () => {
    const user = userEvent.setup();
    renderForm();
    await fillRequired(user);
    const picker = screen.getByLabelText('Attach a document');
    await user.upload(picker, new File([], 'empty.pdf', { type: 'application/pdf' }));
    expect((picker as HTMLInputElement).files).toHaveLength(0);
    expect(useDueDiligenceDraft.getState().fileName).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Submit request' }));
    expect(send).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Remove file' }));
    expect(picker).toHaveFocus();
    expect(screen.queryByText(EMPTY_FILE_MESSAGE)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit request' }));
    expect(send).toHaveBeenCalledTimes(1);
    expect((send.mock.calls[0]?.[0] as FormData).get('FileUpload')).toBeNull();
  });

  // Found by the twenty-third session's portal probe: a server that took the whole upload and never answered left
  // "Uploading… 100%" and a busy Submit request for ever.
  it('should say when the server stops answering, keep every field and the file, and send again under the same key', async () => {
    const header = vi.spyOn(XMLHttpRequest.prototype, 'setRequestHeader');
    const typist = userEvent.setup();
    renderForm();
    await fillRequired(typist);
    const report = new File(['%PDF-1.4'], 'appraisal.pdf', { type: 'application/pdf' });
    await typist.upload(screen.getByLabelText('Attach a document'), report);
    // The server's silence, played on a clock the test moves.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
      const submit = screen.getByRole('button', { name: 'Submit request' });
      await user.click(submit);
      expect(send).toHaveBeenCalledTimes(1);
      expect(submit).toHaveAttribute('aria-busy', 'true');

      await act(() => vi.advanceTimersByTimeAsync(30_000));
      expect(await screen.findByRole('alert')).toHaveTextContent(TIMED_OUT_MESSAGE);
      expect(submit).not.toHaveAttribute('aria-busy', 'true');
      expect(screen.getByLabelText('Project name')).toHaveValue('Harbour Quay');
      expect(screen.getByLabelText('Project description')).toHaveValue('Forty-two flats.');
      expect(screen.getByText('appraisal.pdf')).toBeInTheDocument();

      await user.click(submit);
      expect(send).toHaveBeenCalledTimes(2);
      expect((send.mock.calls[1]?.[0] as FormData).get('FileUpload')).toEqual(report);
      const keys = header.mock.calls
        .filter(([name]) => name === 'idempotency-key')
        .map(([, value]) => value);
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);
    } finally {
      vi.useRealTimers();
    }
  });

  describe('given every required field', () => {
    it('should post the form with the upload', async () => {
      const user = userEvent.setup();
      renderForm();
      await fillRequired(user);
      await user.click(screen.getByRole('button', { name: 'Submit request' }));

      expect(send).toHaveBeenCalledTimes(1);
      const body = send.mock.calls[0]?.[0] as FormData;
      expect(body.get('SingleLine')).toBe('Harbour Quay');
      expect(body.get('Email')).toBe('ada@example.com');
      expect(screen.getByRole('button', { name: /Submit request/ })).toHaveAttribute(
        'aria-busy',
        'true',
      );
    });
  });
});

describe('toFormData', () => {
  it("should use the form service's field names, trim the text and leave out a missing file", () => {
    const form = toFormData({
      ...EMPTY_DRAFT,
      projectName: ' Harbour Quay ',
      projectAddress: '1 Quay Street',
      cityAndPostcode: 'Bristol BS1 4XX',
      projectDescription: 'Flats',
      buildCost: 12_500_000,
      gdv: 30_000_000,
      loanAmount: 9_000_000,
      file: null,
      email: 'ada@example.com',
      fullName: 'Ada Lovelace',
    });

    expect(Object.fromEntries(form)).toEqual({
      SingleLine: 'Harbour Quay',
      SingleLine1: '1 Quay Street',
      SingleLine2: 'Bristol BS1 4XX',
      SingleLine3: 'Flats',
      Currency1: '12500000',
      Currency2: '30000000',
      Currency: '9000000',
      Email: 'ada@example.com',
      SingleLine4: 'Ada Lovelace',
    });
  });

  it('should attach the file as FileUpload', () => {
    const file = new File(['%PDF-1.4'], 'appraisal.pdf', { type: 'application/pdf' });
    const form = toFormData({ ...EMPTY_DRAFT, file, email: 'a@b.co', fullName: 'A B' });
    expect((form.get('FileUpload') as File).name).toBe('appraisal.pdf');
  });
});
