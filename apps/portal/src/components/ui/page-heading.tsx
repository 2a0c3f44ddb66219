import type { ReactNode } from 'react';
import { useRouteLoaderData } from 'react-router-dom';
import { containMarksCss } from '@firm/ui';
import styled from 'styled-components';

import { CLIENT_ROUTE_ID } from '@/hooks/use-loaded-client';
import { documentTitleOf } from '@/lib/document-title';
import type { Client } from '@/types/api';

interface PageHeadingProps {
  children: ReactNode;
  /** Shown under the heading. */
  lead?: ReactNode;
  /** The browser tab's title, before the client's name; the heading's text when it is a string. */
  documentTitle?: string;
}

/**
 * The page's one `<h1>`, and its title in the browser tab (React 19 hoists `<title>` into the head), which ends
 * with the client's name, so that tabs and history entries of two clients' hubs can be told apart.
 */
export function PageHeading({ children, lead, documentTitle }: PageHeadingProps) {
  const client = useRouteLoaderData(CLIENT_ROUTE_ID) as Client | undefined;
  const page = documentTitle ?? (typeof children === 'string' ? children : undefined);
  return (
    <Header>
      {page ? <title>{documentTitleOf(page, client)}</title> : null}
      <H1>{children}</H1>
      {lead ? <Lead>{lead}</Lead> : null}
    </Header>
  );
}

const Header = styled.div`
  margin-bottom: ${({ theme }) => theme.space.lg};
`;

const H1 = styled.h1`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSize.xxl};
  line-height: ${({ theme }) => theme.lineHeight.tight};
  /* An article's title comes from content: stacked combining marks stay on it, off the header. */
  ${containMarksCss}
`;

const Lead = styled.p`
  margin: ${({ theme }) => theme.space.xs} 0 0;
  color: ${({ theme }) => theme.color.muted};
`;
