import { useLayoutEffect, useRef, useState } from 'react';
import { styled } from 'styled-components';

export interface ClampedNotesProps {
  /** Id of the text, which the button controls. */
  id: string;
  /** Id of what the notes are about (the row's insurance), which describes the button. */
  describedBy: string;
  text: string;
}

type NotesState = 'clamped' | 'expanded';

/**
 * Notes clamped to two lines. Only when the text overflows does a 'Show more' / 'Show less' button
 * appear (with `aria-expanded`); the full text is always in the page for assistive technology.
 */
export function ClampedNotes({ id, describedBy, text }: ClampedNotesProps) {
  const [state, setState] = useState<NotesState>('clamped');
  const [overflows, setOverflows] = useState(false);
  const textRef = useRef<HTMLParagraphElement>(null);

  useLayoutEffect(() => {
    const element = textRef.current;
    // Expanded text does not overflow by definition: keep what the clamped text measured.
    if (!element || state === 'expanded') return;
    const measure = () => setOverflows(element.scrollHeight > element.clientHeight + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [state, text]);

  const expanded = state === 'expanded';
  return (
    <>
      <Text id={id} ref={textRef} data-state={state}>
        {text}
      </Text>
      {overflows || expanded ? (
        <MoreButton
          type="button"
          aria-expanded={expanded}
          aria-controls={id}
          aria-describedby={describedBy}
          onClick={() => setState(expanded ? 'clamped' : 'expanded')}
        >
          {expanded ? 'Show less' : 'Show more'}
        </MoreButton>
      ) : null}
    </>
  );
}

const Text = styled.p`
  margin: 0;

  &[data-state='clamped'] {
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 2;
    line-clamp: 2;
    overflow: hidden;
  }
`;

const MoreButton = styled.button`
  margin-top: ${({ theme }) => theme.space.xs};
  padding: 0;
  border: 0;
  background: none;
  color: ${({ theme }) => theme.color.accent};
  font: inherit;
  font-weight: ${({ theme }) => theme.fontWeight.medium};
  text-decoration: underline;
  cursor: pointer;

  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.color.focusRing};
    outline-offset: 2px;
  }
`;
