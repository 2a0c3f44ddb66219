import { formatPounds } from '@firm/pricing';
import { Button, FileField, MoneySliderField, TextArea, TextField } from '@firm/ui';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import styled from 'styled-components';

import { LogInAgainLink } from '@/components/ui/log-in-again-link';
import { useLeaveWarning } from '@/hooks/use-leave-warning';
import { focusFirstInDocumentOrder } from '@/lib/focus-first';
import { ApiError, UnreadableAnswerError } from '@/lib/api-client';
import { messageOf, UNCONFIRMED_NOTE } from '@/lib/errors';

import { submitDueDiligence } from '../api/submit-due-diligence';
import { DUE_DILIGENCE_LIMITS, EMPTY_DRAFT, useDueDiligenceDraft } from '../stores/draft-store';
import type { DueDiligenceDraft } from '../stores/draft-store';
import {
  fieldRefusalOf,
  invalidFields,
  missingFields,
  TEXT_FIELDS,
  textFieldMessage,
} from '../validation';
import type { RequiredField } from '../validation';

/** The attachment limit (spec §5): 20 MB. */
export const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;
export const FILE_TOO_LARGE_MESSAGE = 'File size should be less than 20MB.';
/**
 * A chosen file of no bytes (emptied or moved since, a broken export): the API's words for it, with the way to
 * send the form without it (the field's Remove file button).
 */
export const EMPTY_FILE_MESSAGE =
  'The attached file is empty (0 bytes). Choose the file again, or remove it to send the form without one.';

/** The types the API accepts (it checks the content, not the name); the picker offers these. */
/** Asked before the page is left while the request is on its way. */
export const LEAVE_WHILE_SENDING =
  'Your request is still being sent. If you leave this page now, it will not be sent. Leave the page?';

const ACCEPTED_FILES = '.pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.csv,.txt,.png,.jpg,.jpeg,.gif,.webp';

interface DueDiligenceFormProps {
  prefix: string;
  /** The logged-in user, sent as the hidden Email and SingleLine4 fields. */
  user: { email: string; fullName: string };
  onSubmitted: () => void;
}

type Status =
  | { state: 'idle' }
  | { state: 'sending'; progress: number }
  | { state: 'failed'; message: string; loggedOut: boolean };

/** The API's refusal of a text field (in the form's words), shown there until the field is changed. */
interface Refusal {
  field: RequiredField;
  message: string;
}

/**
 * The due diligence request (spec §3, §5): the four text fields are required and highlighted when empty, or when
 * the API would refuse them (too long, hidden or unreadable characters, a line break outside the description),
 * each saying why at the field (nothing is sent then; a field the API refuses all the same says so there too);
 * three money sliders with typed amounts; an optional attachment of at most 20 MB, checked before any upload.
 * Sending shows the upload progress and a spinner.
 */
export function DueDiligenceForm({ prefix, user, onSubmitted }: DueDiligenceFormProps) {
  const {
    owner: draftOwner,
    draft: storedDraft,
    fileName: storedFileName,
    claim,
    update,
    chooseFile,
    keyFor,
    clear,
  } = useDueDiligenceDraft();
  const owner = `${prefix}/${user.email}`;
  // A draft left in this tab by another user or client is never rendered, not even before the claim below
  // empties it (the claim runs before paint, but the first render would otherwise hold the other user's text).
  const draft = draftOwner === owner ? storedDraft : EMPTY_DRAFT;
  useLayoutEffect(() => claim(owner), [claim, owner]);
  const [file, setFile] = useState<File | null>(null);
  // Found by the eighteenth session's portal probe: on a magic-link client, a request refused because the session
  // had ended came back after logging in again with its text (the draft is kept in the tab) but not its file (a
  // file cannot be kept), and nothing said so: it would have been sent without it. The draft keeps the file's
  // name (only its name), and the field asks for it again until a file is chosen.
  const lostFileName = file === null && draftOwner === owner ? storedFileName : null;
  // The file field refused the file chosen (too large, or empty) and says why; the form is not sent meanwhile.
  const [fileRefused, setFileRefused] = useState(false);
  // After a Submit with fields the API would refuse: each says why at the field, until it is put right.
  const [checked, setChecked] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [status, setStatus] = useState<Status>({ state: 'idle' });
  const form = useRef<HTMLFormElement>(null);
  const failure = useRef<HTMLParagraphElement>(null);
  /** The upload on its way: leaving the page cancels it (the draft stays), so it cannot navigate from elsewhere. */
  const upload = useRef<AbortController | null>(null);
  // Leaving while the request is on its way asks first (it would not be sent).
  const isUploading = useCallback(() => upload.current !== null, []);
  useLeaveWarning(isUploading, LEAVE_WHILE_SENDING);

  useEffect(() => () => upload.current?.abort(), []);

  // A refusal (429, 507, no connection…) takes keyboard focus, so it is read out and the user starts from it.
  useEffect(() => {
    if (status.state === 'failed') failure.current?.focus();
  }, [status]);

  // A field the API refused takes keyboard focus once it says why (its message read with it).
  useEffect(() => {
    if (refusal !== null) fieldElement(form.current, refusal.field)?.focus();
  }, [refusal]);

  const errorFor = (field: RequiredField): string | undefined => {
    const problem = checked ? textFieldMessage(draft, field) : undefined;
    if (problem !== undefined) return problem;
    // The API's refusal holds until the field is changed.
    return refusal?.field === field ? refusal.message : undefined;
  };
  const invalid = TEXT_FIELDS.filter((field) => errorFor(field) !== undefined);
  const missing = checked ? missingFields(draft) : [];

  const text = (field: RequiredField) => ({
    value: draft[field],
    required: true,
    errorMessage: errorFor(field),
    onChange: (event: { target: { value: string } }) => {
      if (refusal?.field === field) setRefusal(null);
      update({ [field]: event.target.value });
    },
  });

  const money = (field: 'buildCost' | 'gdv' | 'loanAmount') => ({
    ...DUE_DILIGENCE_LIMITS[field],
    value: draft[field],
    onValueChange: (value: number) => update({ [field]: value } as Partial<DueDiligenceDraft>),
    format: formatPounds,
  });

  // FileField refuses a file over the limit, or empty, itself (message shown, onFileChange(null)); the form
  // remembers the refusal so that it is not sent without the attachment the user meant to add, until another
  // file is chosen or the refused one removed (the field's Remove file: found by the twentieth session's portal
  // probe, an empty file could not be taken away, and the form could not be sent at all).
  const noteChosenFile = (event: FormEvent<HTMLInputElement>) => {
    const chosen = event.currentTarget.files?.[0];
    setFileRefused(
      chosen !== undefined && (chosen.size > MAX_ATTACHMENT_BYTES || chosen.size === 0),
    );
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status.state === 'sending') return;
    // Checked as the API checks them: empty, too long, hidden or unreadable characters, line breaks.
    const wrong = invalidFields(draft);
    // A typed amount the field refused (it says why, and keeps its last good value): not sent with that value
    // as if nothing were wrong.
    const refused = [
      ...(form.current?.querySelectorAll<HTMLElement>(
        'input[inputmode="decimal"][aria-invalid="true"]',
      ) ?? []),
    ];
    // Found by the twenty-third session's portal probe: with the file field saying that the draft's file was not
    // kept, Submit request sent the request without it, and it was stored so. It waits, as for a refused file,
    // until the file is chosen again or the user takes it away (Remove file: sent without one).
    const fileMissing = fileRefused || lostFileName !== null;
    if (wrong.length > 0 || fileMissing || refused.length > 0) {
      setChecked(true);
      // Focus goes to the first field to fix, in the form's order.
      focusFirstInDocumentOrder([
        ...wrong.map((field) => fieldElement(form.current, field)),
        ...refused,
        fileMissing ? attachmentElement(form.current) : null,
      ]);
      return;
    }
    // Everything is filled in: the fields are no longer shown as missing, nor, once the form is emptied for the
    // thank-you page, shown as missing again for a moment (with the alert read out over a request that worked).
    setChecked(false);
    setRefusal(null);
    setStatus({ state: 'sending', progress: 0 });
    const controller = new AbortController();
    upload.current = controller;
    const request = { ...draft, file, email: user.email, fullName: user.fullName };
    // The same request as the last one sent (its answer lost, or refused for a while) goes under the same key.
    const idempotencyKey = keyFor(
      JSON.stringify([
        draft,
        file === null ? null : [file.name, file.size, file.lastModified],
        user.email,
        user.fullName,
      ]),
    );
    try {
      await submitDueDiligence(prefix, request, {
        onProgress: (progress) => setStatus({ state: 'sending', progress }),
        signal: controller.signal,
        idempotencyKey,
      });
      if (controller.signal.aborted) return;
      clear();
      setFile(null);
      // Received: the page may go to its thank-you text without asking.
      upload.current = null;
      onSubmitted();
    } catch (error) {
      if (controller.signal.aborted) return;
      // The API refused a field after all (its rules changed, say): said at the field, in the form's words.
      const fieldRefusal =
        error instanceof ApiError && error.status === 400
          ? fieldRefusalOf(error.message, draft)
          : undefined;
      if (fieldRefusal?.field != null) {
        setRefusal({ field: fieldRefusal.field, message: fieldRefusal.message });
        setStatus({ state: 'idle' });
        return;
      }
      const message = fieldRefusal?.message ?? messageOf(error);
      setStatus({
        state: 'failed',
        // An answer that could not be read (another server's page) leaves it open whether the request arrived, as a
        // calculator says (found by the thirtieth session's portal probe: it said only that it could not be read).
        message:
          error instanceof UnreadableAnswerError ? `${message} ${UNCONFIRMED_NOTE}` : message,
        // The session has ended: sending again cannot work until the user logs in again.
        loggedOut: error instanceof ApiError && error.status === 401,
      });
    } finally {
      if (upload.current === controller) upload.current = null;
    }
  };

  const sending = status.state === 'sending';
  const percent = sending ? Math.round(status.progress * 100) : 0;

  return (
    <Form ref={form} onSubmit={submit} noValidate aria-label="Request Due Diligence">
      <Fieldset>
        <legend>Your project</legend>
        <Hint>All four fields are required.</Hint>
        <TextField label="Project name" data-field="projectName" {...text('projectName')} />
        <TextField
          label="Project address"
          autoComplete="street-address"
          data-field="projectAddress"
          {...text('projectAddress')}
        />
        <TextField
          label="City and postcode"
          data-field="cityAndPostcode"
          {...text('cityAndPostcode')}
        />
        <TextArea
          label="Project description"
          rows={5}
          data-field="projectDescription"
          {...text('projectDescription')}
        />
      </Fieldset>

      <Fieldset>
        <legend>Figures</legend>
        <MoneySliderField label="Build cost" {...money('buildCost')} />
        <MoneySliderField label="Gross development value (GDV)" {...money('gdv')} />
        <MoneySliderField label="Loan amount" {...money('loanAmount')} />
      </Fieldset>

      <Fieldset>
        <legend>Documents (optional)</legend>
        <FileField
          label="Attach a document"
          hint="PDF, Word, Excel, PowerPoint, CSV, text or image files, up to 20 MB."
          accept={ACCEPTED_FILES}
          placeholder="Choose file (max 20Mb)"
          maxBytes={MAX_ATTACHMENT_BYTES}
          tooLargeMessage={FILE_TOO_LARGE_MESSAGE}
          emptyMessage={EMPTY_FILE_MESSAGE}
          data-field="attachment"
          onInput={noteChosenFile}
          onFileChange={(chosen) => {
            setFile(chosen);
            chooseFile(chosen?.name ?? null);
          }}
          onRemove={() => setFileRefused(false)}
          errorMessage={lostFileName !== null ? lostFileMessage(lostFileName) : undefined}
        />
        {lostFileName !== null ? (
          // The field's own Remove file shows only for a file it holds; this one takes away the file the draft
          // names, to send the form without one. Focus goes back to the field as the button goes.
          <RemoveLostFile
            type="button"
            variant="ghost"
            size="sm"
            onClick={() => {
              chooseFile(null);
              attachmentElement(form.current)?.focus();
            }}
          >
            Remove file
          </RemoveLostFile>
        ) : null}
      </Fieldset>

      <input type="hidden" name="Email" value={user.email} />
      <input type="hidden" name="SingleLine4" value={user.fullName} />

      {invalid.length > 0 ? (
        <ErrorSummary role="alert">
          {invalid.every((field) => missing.includes(field))
            ? 'Please fill in the highlighted fields.'
            : 'Please correct the highlighted fields.'}
        </ErrorSummary>
      ) : null}
      {status.state === 'failed' ? (
        <ErrorSummary ref={failure} tabIndex={-1} role="alert">
          {status.message}
        </ErrorSummary>
      ) : null}
      {status.state === 'failed' && status.loggedOut ? (
        // The draft is kept in this tab (not the file), and the login page brings the user back here.
        <p>
          <LogInAgainLink prefix={prefix} draft />
        </p>
      ) : null}

      {sending ? (
        <Progress>
          <label htmlFor="due-diligence-progress">
            {file ? `Uploading… ${percent}%` : 'Sending…'}
          </label>
          <progress id="due-diligence-progress" max={100} value={percent}>
            {percent}%
          </progress>
        </Progress>
      ) : null}

      <div>
        <Button type="submit" loading={sending}>
          Submit request
        </Button>
      </div>
    </Form>
  );
}

/**
 * What the file field says when the draft came back without the file chosen with it. The name is isolated
 * (`<bdi>`): direction marks in it cannot turn the sentence round.
 */
function lostFileMessage(name: string) {
  return (
    <>
      Your file “<bdi>{name}</bdi>” was not kept with your draft: choose it again, or remove it to
      send the form without one.
    </>
  );
}

/** The file field's control in the form. */
function attachmentElement(form: HTMLFormElement | null): HTMLElement | null {
  return form?.querySelector<HTMLElement>('[data-field="attachment"]') ?? null;
}

/** A text field's control in the form. */
function fieldElement(form: HTMLFormElement | null, field: RequiredField): HTMLElement | null {
  return form?.querySelector<HTMLElement>(`[data-field="${field}"]`) ?? null;
}

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  max-width: 44rem;
`;

const Fieldset = styled.fieldset`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  margin: 0;
  padding: ${({ theme }) => theme.space.lg};
  border: 1px solid ${({ theme }) => theme.color.divider};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.color.surface};

  legend {
    padding: 0 ${({ theme }) => theme.space.xs};
    font-weight: ${({ theme }) => theme.fontWeight.bold};
  }
`;

const Hint = styled.p`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSize.sm};
  color: ${({ theme }) => theme.color.muted};
`;

/** Beside the field, as the field's own Remove file is. */
const RemoveLostFile = styled(Button)`
  justify-self: start;
`;

const ErrorSummary = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.color.failure};
  font-weight: ${({ theme }) => theme.fontWeight.medium};
`;

const Progress = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.xxs};

  progress {
    width: 100%;
    height: 0.75rem;
  }
`;
