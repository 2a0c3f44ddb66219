import styled from 'styled-components';

interface SafeHtmlProps {
  /** HTML that the API has already sanitised (content is sanitised on import, decisions.md §4). */
  html: string;
  className?: string;
}

/**
 * The one place where the portal renders HTML from the API. The server sanitises every HTML field before it reaches
 * a browser; nothing else in the portal may use `dangerouslySetInnerHTML`.
 */
export function SafeHtml({ html, className }: SafeHtmlProps) {
  return <Prose className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}

const Prose = styled.div`
  overflow-wrap: anywhere;

  & > :first-child {
    margin-top: 0;
  }

  & > :last-child {
    margin-bottom: 0;
  }

  img {
    max-width: 100%;
    height: auto;
  }

  table {
    border-collapse: collapse;
  }

  th,
  td {
    border: 1px solid ${({ theme }) => theme.color.divider};
    padding: ${({ theme }) => theme.space.xs};
    text-align: left;
  }
`;
