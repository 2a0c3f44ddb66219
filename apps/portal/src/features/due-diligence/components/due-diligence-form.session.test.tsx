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

  // Found by the eighteenth session's portal probe: back from logging in again, the form had the text but not the
  // file chosen with it (a file cannot be kept), and nothing said so: it would have gone without it.
  it('should ask, at the file field, for the file chosen with the draft once back from logging in again', async () => {
    const user = userEvent.setup();
    submit.mockRejectedValueOnce(new ApiError(401, 'You are not logged in. Please log in again.'));
    renderForm();
    await user.type(await screen.findByLabelText('Project name'), 'Harbour Quay');
    await user.type(screen.getByLabelText('Project address'), '1 Quay Street');
    await user.type(screen.getByLabelText('City and postcode'), 'Bristol BS1 4XX');
    await user.type(screen.getByLabelText('Project description'), 'Forty-two flats.');
    const report = new File(['%PDF-1.4 secret figures'], 'report.pdf', { type: 'application/pdf' });
    await user.upload(screen.getByLabelText('Attach a document'), report);
    expect(screen.queryByText(/was not kept/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit request' }));
    await screen.findByRole('link', { name: 'Log in again' });

    // Logging in again is a fresh page load: the store is read back from the tab, which holds the file's name
    // and never its contents.
    const stored = sessionStorage.getItem('due-diligence:draft') ?? '';
    expect(stored).toContain('report.pdf');
    expect(stored).not.toContain('secret figures');
    cleanup();
    useDueDiligenceDraft.setState({
      owner: null,
      draft: EMPTY_DRAFT,
      pending: null,
      fileName: null,
    });
    sessionStorage.setItem('due-diligence:draft', stored);
    await useDueDiligenceDraft.persist.rehydrate();
    renderForm();

    const picker = await screen.findByLabelText('Attach a document');
    expect(screen.getByLabelText('Project name')).toHaveValue('Harbour Quay');
    const message =
      'Your file “report.pdf” was not kept with your draft: choose it again, or remove it to send the form without one.';
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(picker).toHaveAccessibleDescription(expect.stringContaining(message));

    await user.upload(picker, new File(['%PDF-1.4'], 'report.pdf', { type: 'application/pdf' }));
    expect(screen.queryByText(/was not kept/)).not.toBeInTheDocument();
    expect(picker).not.toHaveAttribute('aria-invalid');
  });

  // Found by the twenty-third session's portal probe: with the field saying that the file was not kept, Submit
  // request sent the request without it, and it was stored so.
  describe('with the file the draft names not chosen again', () => {
    const filled = {
      ...EMPTY_DRAFT,
      projectName: 'Harbour Quay',
      projectAddress: '1 Quay Street',
      cityAndPostcode: 'Bristol BS1 4XX',
      projectDescription: 'Forty-two flats.',
    };
    beforeEach(() => {
      submit.mockResolvedValue(undefined);
      useDueDiligenceDraft.setState({
        owner: 'demo/ada@example.com',
        draft: filled,
        fileName: 'report.pdf',
      });
    });

    it('should send nothing, and take focus to the file field, which still asks for it', async () => {
      const user = userEvent.setup();
      renderForm();
      const picker = await screen.findByLabelText('Attach a document');
      await user.click(screen.getByRole('button', { name: 'Submit request' }));
      expect(submit).not.toHaveBeenCalled();
      expect(picker).toHaveFocus();
      expect(picker).toHaveAttribute('aria-invalid', 'true');
      expect(picker).toHaveAccessibleDescription(expect.stringContaining('was not kept'));

      // Chosen again: it goes with the request.
      const report = new File(['%PDF-1.4'], 'report.pdf', { type: 'application/pdf' });
      await user.upload(picker, report);
      await user.click(screen.getByRole('button', { name: 'Submit request' }));
      expect(submit).toHaveBeenCalledTimes(1);
      expect(submit.mock.calls[0]?.[1].file).toBe(report);
    });

    it('should send the form without a file once the user removes it', async () => {
      const user = userEvent.setup();
      renderForm();
      const picker = await screen.findByLabelText('Attach a document');
      await user.click(screen.getByRole('button', { name: 'Remove file' }));
      expect(screen.queryByText(/was not kept/)).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Remove file' })).not.toBeInTheDocument();
      expect(picker).toHaveFocus();
      expect(useDueDiligenceDraft.getState().fileName).toBeNull();

      await user.click(screen.getByRole('button', { name: 'Submit request' }));
      expect(submit).toHaveBeenCalledTimes(1);
      expect(submit.mock.calls[0]?.[1]).toMatchObject({ projectName: 'Harbour Quay', file: null });
    });
  });

  it("should not name another user's file", async () => {
    useDueDiligenceDraft.setState({
      owner: 'demo/ada@example.com',
      draft: { ...EMPTY_DRAFT, projectName: 'Harbour Quay' },
      fileName: 'report.pdf',
    });
    renderForm('bob@example.com');
    expect(await screen.findByLabelText('Attach a document')).toBeInTheDocument();
    expect(screen.queryByText(/report\.pdf/)).not.toBeInTheDocument();
    expect(useDueDiligenceDraft.getState().fileName).toBeNull();
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
