import { VisuallyHidden } from '@firm/ui';
import { useEffect, useRef, useState } from 'react';

interface StatusMessageProps {
  /** What to tell screen readers now ('' for nothing). */
  children: string;
  /** Say nothing until the message first changes (not as the page opens, with its own heading to read). */
  quietAtFirst?: boolean;
}

/**
 * A status message for screen readers only (a polite live region, hidden on screen). Its text is set after the
 * first render, so the region is in the page, empty, before its first news: a region added with its text already
 * in it is not read by every screen reader.
 */
export function StatusMessage({ children: news, quietAtFirst = false }: StatusMessageProps) {
  const [announced, setAnnounced] = useState('');
  const first = useRef(news);
  const changed = useRef(!quietAtFirst);
  useEffect(() => {
    if (news !== first.current) changed.current = true;
    if (changed.current) setAnnounced(news);
  }, [news]);
  return <VisuallyHidden role="status">{announced}</VisuallyHidden>;
}
