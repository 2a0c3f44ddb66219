import { Spinner } from '@firm/ui';
import styled from 'styled-components';

/** Shown while the first page of a visit loads. */
export function PageLoading() {
  return (
    <Center>
      <Spinner label="Loading…" />
    </Center>
  );
}

const Center = styled.div`
  display: grid;
  place-items: center;
  min-height: 50vh;
`;
