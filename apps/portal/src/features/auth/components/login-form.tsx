import { Button, TextField } from '@firm/ui';
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import styled from 'styled-components';

import { ApiError } from '@/lib/api-client';
import { normaliseEmailAddress } from '@/lib/email-address';
import { normalisePhoneNumber } from '@/lib/phone-number';
import type { LoginRequest, LoginResponse } from '@/types/api';

import { useLogin } from '../api/login';
import { invalidLoginFields, loginFieldMessage, type LoginField } from '../utils/login-checks';

const EMPTY: LoginRequest = { first_name: '', last_name: '', email: '', phone: '' };

interface LoginFormProps {
  prefix: string;
  /** A truthy `redirect`: the session has started. */
  /** The session has started, for `email` (as sent). */
  onLoggedIn: (response: LoginResponse, email: string) => void | Promise<void>;
}

/**
 * Spec §4 'Login': idle → pending (Continue shows a spinner) → either logged in (open policy) or 'link sent' with
 * 'Send again' back to the form; a failure shows the API's message, or 'An error occurred'.
 */
export function LoginForm({ prefix, onLoggedIn }: LoginFormProps) {
  const { trigger, isMutating, error, reset } = useLogin(prefix);
  const [details, setDetails] = useState<LoginRequest>(EMPTY);
  const [linkSent, setLinkSent] = useState(false);
  const [finishing, setFinishing] = useState(false);
  const sentMessage = useRef<HTMLParagraphElement>(null);
  const firstField = useRef<HTMLInputElement>(null);
  const errorText = useRef<HTMLParagraphElement>(null);
  const [returnedToForm, setReturnedToForm] = useState(false);
  // After a Continue with fields the API would refuse: each says why at the field, until it is put right.
  const [checked, setChecked] = useState(false);

  useEffect(() => {
    if (linkSent) sentMessage.current?.focus();
    else if (returnedToForm) firstField.current?.focus();
  }, [linkSent, returnedToForm]);

  // A refusal (too many attempts, the server down…) takes keyboard focus, so it is read out at once.
  useEffect(() => {
    if (error) errorText.current?.focus();
  }, [error]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const invalid = invalidLoginFields(details);
    if (invalid.length > 0) {
      setChecked(true);
      reset();
      document.getElementById(fieldId(invalid[0]!))?.focus();
      return;
    }
    const response = await trigger({
      first_name: details.first_name.trim(),
      last_name: details.last_name.trim(),
      email: normaliseEmailAddress(details.email),
      phone: normalisePhoneNumber(details.phone).trim(),
    });
    if (!response) return; // the error is in `error`
    if (response.redirect) {
      // Stays busy while the hub loads; only a failure to get there gives the button back.
      setFinishing(true);
      try {
        await onLoggedIn(response, normaliseEmailAddress(details.email));
      } catch (failure) {
        setFinishing(false);
        throw failure;
      }
    } else {
      setLinkSent(true);
    }
  };

  if (linkSent) {
    return (
      <Sent>
        <p ref={sentMessage} tabIndex={-1} role="status">
          An email has been sent with a link to log in
        </p>
        <Button
          type="button"
          variant="secondary"
          onClick={() => {
            reset();
            setLinkSent(false);
            setReturnedToForm(true);
          }}
        >
          Send again
        </Button>
      </Sent>
    );
  }

  const field = (name: LoginField) => ({
    id: fieldId(name),
    name,
    value: details[name],
    required: true,
    errorMessage: checked ? loginFieldMessage(details, name) : undefined,
    onChange: (event: { target: { value: string } }) =>
      setDetails((current) => ({ ...current, [name]: event.target.value })),
  });

  return (
    // The fields are checked here, in words at each field, rather than by the browser (whose tooltips go, and
    // which passes what the API refuses).
    <Form onSubmit={submit} aria-label="Log in" noValidate>
      <TextField
        ref={firstField}
        label="First name"
        autoComplete="given-name"
        {...field('first_name')}
      />
      <TextField label="Last name" autoComplete="family-name" {...field('last_name')} />
      <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
      <TextField label="Phone" type="tel" autoComplete="tel" {...field('phone')} />
      {error ? (
        <ErrorText ref={errorText} tabIndex={-1} role="alert">
          {loginErrorMessage(error)}
        </ErrorText>
      ) : null}
      <Button type="submit" loading={isMutating || finishing} fullWidth>
        Continue
      </Button>
    </Form>
  );
}

/** The id of a login field's input, to move focus to it. */
function fieldId(field: LoginField): string {
  return `login-${field.replace('_', '-')}`;
}

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
`;

const Sent = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.md};

  p {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSize.lg};
  }
`;

const ErrorText = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.color.failure};
`;

/**
 * What a failed login shows (spec §4): the API's message, or 'An error occurred' when there was no answer from the
 * API (the browser's own wording, such as 'Failed to fetch', is never shown), a server silent for 30 seconds too.
 */
export function loginErrorMessage(error: unknown): string {
  return error instanceof ApiError && error.message.trim() !== ''
    ? error.message
    : 'An error occurred';
}
