import { useId } from 'react';
import styled from 'styled-components';

import { mailtoHref } from '@/lib/links';
import type { Client } from '@/types/api';

/** `+44 (0)20 7946 0000` → `tel:+4402079460000`: only digits and a leading plus survive. */
export function telHref(phone: string): string {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/\D/g, '');
  return `tel:${trimmed.startsWith('+') ? '+' : ''}${digits}`;
}

/** The sidebar's 'Contact the team' card: the provider's telephone number and e-mail address. */
export function ContactCard({ contact }: { contact: Client['contact'] }) {
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId}>
      <Title id={titleId}>Contact the team</Title>
      <List>
        <li>
          <a href={telHref(contact.phone)}>{contact.phone}</a>
        </li>
        <li>
          <a href={mailtoHref(contact.email)}>{contact.email}</a>
        </li>
      </List>
    </Card>
  );
}

const Card = styled.section`
  margin-top: ${({ theme }) => theme.space.lg};
  padding: ${({ theme }) => theme.space.md};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.color.background};
  border: 1px solid ${({ theme }) => theme.color.divider};
`;

const Title = styled.h2`
  margin: 0 0 ${({ theme }) => theme.space.xs};
  font-size: ${({ theme }) => theme.fontSize.md};
`;

const List = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
  overflow-wrap: anywhere;

  li + li {
    margin-top: ${({ theme }) => theme.space.xxs};
  }
`;
