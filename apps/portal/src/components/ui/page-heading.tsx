import type { ReactNode } from 'react';
import styled from 'styled-components';

interface PageHeadingProps {
  children: ReactNode;
  /** Shown under the heading. */
  lead?: ReactNode;
  /** The browser tab's title; the heading's text when it is a string. */
  documentTitle?: string;
}

/** The page's one `<h1>`, and its title in the browser tab (React 19 hoists `<title>` into the head). */
export function PageHeading({ children, lead, documentTitle }: PageHeadingProps) {
  const title = documentTitle ?? (typeof children === 'string' ? children : undefined);
  return (
    <Header>
      {title ? <title>{title}</title> : null}
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
`;

const Lead = styled.p`
  margin: ${({ theme }) => theme.space.xs} 0 0;
  color: ${({ theme }) => theme.color.muted};
`;
