import { useState } from 'react';
import type { FormEvent } from 'react';
import { useLocation, useNavigate, useNavigation, useSearchParams } from 'react-router-dom';
import styled from 'styled-components';

import { paths } from '@/config/paths';
import { MAX_SEARCH_LENGTH, searchText } from '@/features/content/utils/search-text';
import { isNavigatingTo } from '@/lib/repeated-navigation';

interface SearchBoxProps {
  prefix: string;
}

/**
 * The header's search box (spec §2): Enter submits to the search results page unless the box is empty; on that page
 * the box shows the query, and it is cleared when the user leaves it.
 */
export function SearchBox({ prefix }: SearchBoxProps) {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const [searchParams] = useSearchParams();
  const onResults = pathname === paths.app.searchResults(prefix);
  // As the results page reads it: cut to what the box takes (a longer `search=` in an address is cut to 200).
  const query = onResults ? searchText(searchParams.get('search')) : '';

  // Follow the URL: a new query (or leaving the results page) replaces what is in the box.
  const [value, setValue] = useState(query);
  const source = onResults ? `results:${query}` : 'elsewhere';
  const [syncedWith, setSyncedWith] = useState(source);
  if (syncedWith !== source) {
    setSyncedWith(source);
    setValue(query);
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // As the results page will read it (no control characters or direction marks); nothing visible: no search.
    const text = searchText(value);
    if (text === '') return;
    const href = paths.app.searchResults(prefix, text);
    // Enter pressed again while this very search is on its way: it goes on, rather than being asked for anew (found
    // by the twenty-seventh session's probe: each Enter gave up the search's request and made it again).
    if (isNavigatingTo(navigation, href)) return;
    navigate(href);
  };

  return (
    <Form role="search" onSubmit={submit}>
      <Input
        type="search"
        name="search"
        aria-label="Search the hub"
        placeholder="Search"
        autoComplete="off"
        enterKeyHint="search"
        maxLength={MAX_SEARCH_LENGTH}
        value={value}
        onChange={(event) => setValue(event.target.value)}
      />
    </Form>
  );
}

const Form = styled.form`
  flex: 1 1 16rem;
  max-width: 32rem;
  margin: 0;
`;

const Input = styled.input`
  width: 100%;
  min-height: 2.5rem;
  padding: ${({ theme }) => `${theme.space.xs} ${theme.space.sm}`};
  font: inherit;
  color: ${({ theme }) => theme.color.text};
  background: ${({ theme }) => theme.color.surface};
  border: 1px solid ${({ theme }) => theme.color.border};
  border-radius: ${({ theme }) => theme.radius.md};
`;
