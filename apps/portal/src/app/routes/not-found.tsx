import styled from 'styled-components';

/** Unknown client prefix or unmatched URL (spec §2). */
export function NotFoundRoute() {
  return (
    <Page>
      <title>404 Not Found</title>
      <h1>404 Not Found</h1>
      <p>
        There is no page at this address. Check the link you followed, or type the address again.
      </p>
    </Page>
  );
}

export const Page = styled.main`
  max-width: 40rem;
  margin: 0 auto;
  padding: ${({ theme }) => `${theme.space.xxl} ${theme.space.md}`};

  h1 {
    margin-top: 0;
  }
`;
