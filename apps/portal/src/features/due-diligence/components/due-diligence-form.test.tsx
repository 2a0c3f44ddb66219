import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { renderWithClient } from '@/testing/test-utils';

import { toFormData } from '../api/submit-due-diligence';
import { EMPTY_DRAFT, useDueDiligenceDraft } from '../stores/draft-store';

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
