import { TextField } from '@firm/ui';
import type { ChangeEvent } from 'react';
import { styled } from 'styled-components';

import type { ContactDetails } from '../stores/create-draft-store';
import { EMAIL_ADDRESS_MESSAGE } from '@/lib/email-address';
import { phoneNumberMessage } from '@/lib/phone-number';
import { HIDDEN_CHARACTERS_MESSAGE, isBlank } from '@/lib/text';

import { CONTACT_MAX_LENGTH, contactProblem, type ContactField } from '../utils/contact';

export interface ContactFieldsProps {
  /** Prefix of the three inputs' ids (`{idPrefix}-name`, `-telephone`, `-email`). */
  idPrefix: string;
  value: ContactDetails;
  onChange: (value: ContactDetails) => void;
  /** The fields to show in the failure colour. */
  invalid: readonly ContactField[];
  /** The telephone input's form name, label and message: `telephone`, or the BTR's `contact_number`. */
  telephone: { name: string; label: string; errorMessage: string };
}

/** The usual telephone input (the BTR calculator names its own `contact_number`). */
export const TELEPHONE: ContactFieldsProps['telephone'] = {
  name: 'telephone',
  label: 'Telephone',
  errorMessage: 'Enter your telephone number',
};

/** What the e-mail field says when Calculate cannot go on with it: empty, or not an address. */
export function emailMessage(email: string): string {
  return isBlank(email) ? 'Enter your email address' : EMAIL_ADDRESS_MESSAGE;
}

/**
 * What a contact field says when Calculate cannot go on with it. `missing` is the field's own request ("Enter
 * your name"); the other problems say what to change.
 */
function contactMessage(
  contact: ContactDetails,
  field: ContactField,
  missing: string,
): string | undefined {
  switch (contactProblem(contact, field)) {
    case undefined:
      return undefined;
    case 'missing':
      return field === 'email' ? emailMessage(contact.email) : missing;
    case 'hidden-characters':
      return HIDDEN_CHARACTERS_MESSAGE;
    case 'too-long':
      return `Use at most ${CONTACT_MAX_LENGTH[field]} characters`;
    case 'not-an-address':
      return emailMessage(contact.email);
    case 'not-a-phone-number':
      return phoneNumberMessage('not-a-phone-number');
    case 'phone-extension':
      return phoneNumberMessage('extension');
  }
}

/** The id of a contact field's input, so a screen can move focus to it. */
export function contactFieldId(idPrefix: string, field: ContactField): string {
  return `${idPrefix}-${field}`;
}

/** Name, telephone and e-mail, sent with the estimate so the team can follow it up. */
export function ContactFields({
  idPrefix,
  value,
  onChange,
  invalid,
  telephone,
}: ContactFieldsProps) {
  const update = (field: ContactField) => (event: ChangeEvent<HTMLInputElement>) =>
    onChange({ ...value, [field]: event.target.value });
  const isInvalid = (field: ContactField) => invalid.includes(field);

  return (
    <Fields>
      <TextField
        id={contactFieldId(idPrefix, 'name')}
        name="name"
        label="Name"
        autoComplete="name"
        value={value.name}
        onChange={update('name')}
        invalid={isInvalid('name')}
        errorMessage={
          isInvalid('name') ? contactMessage(value, 'name', 'Enter your name') : undefined
        }
      />
      <TextField
        id={contactFieldId(idPrefix, 'telephone')}
        name={telephone.name}
        label={telephone.label}
        type="tel"
        autoComplete="tel"
        value={value.telephone}
        onChange={update('telephone')}
        invalid={isInvalid('telephone')}
        errorMessage={
          isInvalid('telephone')
            ? contactMessage(value, 'telephone', telephone.errorMessage)
            : undefined
        }
      />
      <TextField
        id={contactFieldId(idPrefix, 'email')}
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        value={value.email}
        onChange={update('email')}
        invalid={isInvalid('email')}
        errorMessage={isInvalid('email') ? contactMessage(value, 'email', '') : undefined}
      />
    </Fields>
  );
}

const Fields = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};

  ${({ theme }) => theme.media.md} {
    grid-template-columns: repeat(2, minmax(0, 1fr));

    /* E-mail addresses are long: the email field takes the whole row. */
    & > :last-child {
      grid-column: 1 / -1;
    }
  }
`;
