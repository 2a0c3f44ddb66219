import { screen } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { defaultTheme } from '../theme/theme';
import { expectNoAxeViolations } from '../test/axe';
import { renderWithTheme } from '../test/render';
import { FileField } from './file-field';

const MB = 1024 * 1024;

function fileOfSize(name: string, bytes: number, type = 'application/pdf'): File {
  const file = new File(['%PDF'], name, { type });
  Object.defineProperty(file, 'size', { value: bytes });
  return file;
}

const input = () => screen.getByLabelText<HTMLInputElement>('Attachment');

describe('FileField', () => {
  describe('given no file chosen', () => {
    it('should show the placeholder and describe the native file input with it', () => {
      renderWithTheme(
        <FileField label="Attachment" name="FileUpload" onFileChange={() => undefined} />,
      );
      expect(screen.getByText('Choose file (max 20Mb)')).toBeVisible();
      expect(input()).toHaveAttribute('type', 'file');
      expect(input()).toHaveAttribute('name', 'FileUpload');
      expect(input()).toHaveAccessibleDescription('Choose file (max 20Mb)');
    });

    it('should have no accessibility violations', async () => {
      const { container } = renderWithTheme(
        <FileField label="Attachment" accept=".pdf" onFileChange={() => undefined} />,
      );
      await expectNoAxeViolations(container);
    });
  });

  describe('when a file within the limit is chosen', () => {
    it('should show its name and report it', async () => {
      const onFileChange = vi.fn();
      const { user } = renderWithTheme(
        <FileField label="Attachment" maxBytes={20 * MB} onFileChange={onFileChange} />,
      );
      const file = fileOfSize('site-plan.pdf', 20 * MB);
      await user.upload(input(), file);
      expect(onFileChange).toHaveBeenCalledWith(file);
      expect(screen.getByText('site-plan.pdf')).toBeVisible();
      expect(screen.queryByText('Choose file (max 20Mb)')).not.toBeInTheDocument();
      expect(input().files?.[0]).toBe(file);
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });
  });

  describe('when a file larger than maxBytes is chosen', () => {
    it('should refuse it: show the message, clear the input and report null', async () => {
      const onFileChange = vi.fn();
      const { user } = renderWithTheme(
        <FileField label="Attachment" maxBytes={20 * MB} onFileChange={onFileChange} />,
      );
      await user.upload(input(), fileOfSize('survey.pdf', 20 * MB + 1));
      expect(screen.getByRole('alert')).toHaveTextContent('File size should be less than 20MB.');
      expect(onFileChange).toHaveBeenLastCalledWith(null);
      expect(input().value).toBe('');
      expect(input()).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByText('Choose file (max 20Mb)')).toBeVisible();
      expect(screen.queryByText('survey.pdf')).not.toBeInTheDocument();
    });

    it('should have no accessibility violations', async () => {
      const { user, container } = renderWithTheme(
        <FileField label="Attachment" maxBytes={MB} onFileChange={() => undefined} />,
      );
      await user.upload(input(), fileOfSize('survey.pdf', 2 * MB));
      await expectNoAxeViolations(container);
    });

    describe('and then a smaller file is chosen', () => {
      it('should clear the message and accept it', async () => {
        const onFileChange = vi.fn();
        const { user } = renderWithTheme(
          <FileField label="Attachment" maxBytes={MB} onFileChange={onFileChange} />,
        );
        await user.upload(input(), fileOfSize('big.pdf', 2 * MB));
        const small = fileOfSize('small.pdf', MB);
        await user.upload(input(), small);
        expect(screen.queryByRole('alert')).not.toBeInTheDocument();
        expect(onFileChange).toHaveBeenLastCalledWith(small);
        expect(screen.getByText('small.pdf')).toBeVisible();
      });
    });
  });

  // Found by the twentieth session's portal probe: an empty file the form refused could not be taken away (a
  // browser's own picker has no way back to no file), so the form could not be sent without one.
  describe('given emptyMessage, when an empty file is chosen', () => {
    it('should refuse it as one too large, and take nothing', async () => {
      const onFileChange = vi.fn();
      const { user } = renderWithTheme(
        <FileField label="Attachment" emptyMessage="It is empty" onFileChange={onFileChange} />,
      );
      await user.upload(input(), fileOfSize('blank.pdf', 0));
      expect(screen.getByRole('alert')).toHaveTextContent('It is empty');
      expect(onFileChange).toHaveBeenLastCalledWith(null);
      expect(input().value).toBe('');
      expect(input()).toHaveAttribute('aria-invalid', 'true');
    });

    it('should take an empty file without emptyMessage', async () => {
      const onFileChange = vi.fn();
      const { user } = renderWithTheme(
        <FileField label="Attachment" onFileChange={onFileChange} />,
      );
      const blank = fileOfSize('blank.pdf', 0);
      await user.upload(input(), blank);
      expect(onFileChange).toHaveBeenLastCalledWith(blank);
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });
  });

  describe('given a chosen or refused file', () => {
    it('should offer to remove it, going back to no file with the focus on the picker', async () => {
      const onFileChange = vi.fn();
      const onRemove = vi.fn();
      const { user } = renderWithTheme(
        <FileField
          label="Attachment"
          maxBytes={MB}
          onFileChange={onFileChange}
          onRemove={onRemove}
        />,
      );
      expect(screen.queryByRole('button', { name: 'Remove file' })).not.toBeInTheDocument();
      await user.upload(input(), fileOfSize('plans.pdf', 100));
      const remove = screen.getByRole('button', { name: 'Remove file' });
      expect(remove).toHaveAccessibleDescription('plans.pdf');
      await user.click(remove);
      expect(onFileChange).toHaveBeenLastCalledWith(null);
      expect(onRemove).toHaveBeenCalledTimes(1);
      expect(input().value).toBe('');
      expect(input()).toHaveFocus();
      expect(screen.getByText('Choose file (max 20Mb)')).toBeVisible();
      expect(screen.queryByRole('button', { name: 'Remove file' })).not.toBeInTheDocument();

      // A refused file: the message goes with it.
      await user.upload(input(), fileOfSize('survey.pdf', 2 * MB));
      expect(screen.getByRole('alert')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Remove file' }));
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(onRemove).toHaveBeenCalledTimes(2);
    });

    it('should have no accessibility violations with the remove button', async () => {
      const { user, container } = renderWithTheme(
        <FileField label="Attachment" onFileChange={() => undefined} />,
      );
      await user.upload(input(), fileOfSize('plans.pdf', 100));
      await expectNoAxeViolations(container);
    });
  });

  describe('given a custom placeholder and too-large message', () => {
    it('should use them', async () => {
      const { user } = renderWithTheme(
        <FileField
          label="Attachment"
          placeholder="Add a PDF"
          maxBytes={10}
          tooLargeMessage="Too big"
          onFileChange={() => undefined}
        />,
      );
      expect(screen.getByText('Add a PDF')).toBeVisible();
      await user.upload(input(), fileOfSize('a.pdf', 11));
      expect(screen.getByRole('alert')).toHaveTextContent('Too big');
    });
  });

  describe('given an error message from the form', () => {
    it('should show it and mark the picker in the failure colour', () => {
      const { container } = renderWithTheme(
        <FileField
          label="Attachment"
          errorMessage="Attach the plans"
          onFileChange={() => undefined}
        />,
      );
      expect(input()).toHaveAttribute('aria-invalid', 'true');
      expect(input()).toHaveAccessibleDescription('Choose file (max 20Mb) Attach the plans');
      expect(container.querySelector('[data-invalid]')).toHaveStyle({
        borderColor: defaultTheme.color.failure,
      });
    });
  });

  describe('given the form is reset', () => {
    it('should show the placeholder again', async () => {
      const { user } = renderWithTheme(
        <form>
          <FileField label="Attachment" onFileChange={() => undefined} />
          <button type="reset">Reset</button>
        </form>,
      );
      await user.upload(input(), fileOfSize('plans.pdf', 100));
      expect(screen.getByText('plans.pdf')).toBeVisible();
      await user.click(screen.getByRole('button', { name: 'Reset' }));
      expect(screen.getByText('Choose file (max 20Mb)')).toBeVisible();
    });
  });

  describe('given a ref', () => {
    it('should point it at the native file input', () => {
      const ref = createRef<HTMLInputElement>();
      renderWithTheme(<FileField label="Attachment" ref={ref} onFileChange={() => undefined} />);
      expect(ref.current).toBe(input());
    });
  });
});
