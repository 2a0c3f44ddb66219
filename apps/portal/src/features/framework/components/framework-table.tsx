import { formatPounds, type FrameworkRow } from '@firm/pricing';
import { VisuallyHidden } from '@firm/ui';
import { styled } from 'styled-components';

import { GuideTag } from '@/components/ui/guide-tag';
import {
  revealFocusedControl,
  ScrollHint,
  Scroller,
  stickyFirstColumn,
} from '@/components/ui/scroll-table';

import { ClampedNotes } from './clamped-notes';

export interface FrameworkTableProps {
  rows: readonly FrameworkRow[];
}

const CAPTION_ID = 'framework-table-caption';

/**
 * The advisor table: the 15 insurances with whether each is required, its value, who buys it and
 * notes. On narrow screens the table scrolls sideways inside a labelled, focusable region.
 */
export function FrameworkTable({ rows }: FrameworkTableProps) {
  return (
    <>
      <ScrollHint>Scroll sideways to see who buys each insurance and the notes.</ScrollHint>
      <TableScroller
        role="region"
        aria-labelledby={CAPTION_ID}
        tabIndex={0}
        onFocus={revealFocusedControl}
      >
        <Table>
          <caption id={CAPTION_ID}>Insurances for your project</caption>
          <thead>
            <tr>
              <th scope="col">Insurance</th>
              <th scope="col">Required</th>
              <th scope="col">Value</th>
              <th scope="col">Buyer</th>
              <th scope="col">Notes</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => {
              const rowId = `framework-row-${index + 1}`;
              return (
                <tr key={row.insurance} data-required={row.required}>
                  <th scope="row" id={`${rowId}-insurance`}>
                    {row.insurance}
                  </th>
                  <td>
                    <Requirement data-required={row.required}>{row.required}</Requirement>
                  </td>
                  <td>
                    <FrameworkValue value={row.value} />
                  </td>
                  <td>
                    {row.buyer === 'Not required' ? (
                      <Muted>Not required</Muted>
                    ) : (
                      <GuideTag tag={row.buyer} />
                    )}
                  </td>
                  <NotesCell>
                    <ClampedNotes
                      id={`${rowId}-notes`}
                      describedBy={`${rowId}-insurance`}
                      text={[row.notes, row.why].filter(Boolean).join(' ')}
                    />
                  </NotesCell>
                </tr>
              );
            })}
          </tbody>
        </Table>
      </TableScroller>
    </>
  );
}

function FrameworkValue({ value }: { value: FrameworkRow['value'] }) {
  if (value === null) {
    return (
      <Muted>
        <span aria-hidden="true">—</span>
        <VisuallyHidden>None</VisuallyHidden>
      </Muted>
    );
  }
  if (typeof value === 'number') return <Money>{formatPounds(value)}</Money>;
  return <>{value}</>;
}

/** The width of the insurance column, which stays in view while the others scroll (`tbody th` below). */
const FIRST_COLUMN = { narrow: '8.5rem', wide: '14rem' } as const;

/**
 * A button scrolled into view (Tab to a row's Show more) is brought out from under the insurance column, not just
 * into the region. Found by the twenty-fifth session's portal probe: at 320 px a focused Show more sat half under
 * it, reading "ow more".
 */
const TableScroller = styled(Scroller)`
  scroll-padding-inline-start: ${FIRST_COLUMN.narrow};

  ${({ theme }) => theme.media.md} {
    scroll-padding-inline-start: ${FIRST_COLUMN.wide};
  }
`;

const Table = styled.table`
  width: 100%;
  min-width: 52rem;
  border-collapse: collapse;
  font-size: ${({ theme }) => theme.fontSize.sm};

  caption {
    padding: ${({ theme }) => `${theme.space.lg} ${theme.space.lg} ${theme.space.sm}`};
    text-align: left;
    font-size: ${({ theme }) => theme.fontSize.lg};
    font-weight: ${({ theme }) => theme.fontWeight.bold};
  }

  th,
  td {
    padding: ${({ theme }) => `${theme.space.md} ${theme.space.lg}`};
    border-top: 1px solid ${({ theme }) => theme.color.divider};
    text-align: left;
    vertical-align: top;
  }

  thead th {
    background: ${({ theme }) => theme.color.background};
    font-weight: ${({ theme }) => theme.fontWeight.bold};
    white-space: nowrap;
  }

  tbody th {
    width: ${FIRST_COLUMN.narrow};
    font-weight: ${({ theme }) => theme.fontWeight.medium};

    ${({ theme }) => theme.media.md} {
      width: ${FIRST_COLUMN.wide};
    }
  }

  /* The insurance stays in view while the other columns scroll sideways. */
  ${stickyFirstColumn}

  tbody tr[data-required='Not required'] > * {
    color: ${({ theme }) => theme.color.muted};
  }
`;

const Requirement = styled.span`
  font-weight: ${({ theme }) => theme.fontWeight.bold};
  white-space: nowrap;

  &[data-required='Recommended'],
  &[data-required='Optional'] {
    font-weight: ${({ theme }) => theme.fontWeight.medium};
  }

  &[data-required='Not required'] {
    font-weight: ${({ theme }) => theme.fontWeight.regular};
  }
`;

const Money = styled.span`
  font-variant-numeric: tabular-nums;
  white-space: nowrap;
`;

const Muted = styled.span`
  color: ${({ theme }) => theme.color.muted};
`;

const NotesCell = styled.td`
  min-width: 18rem;
  max-width: 28rem;
`;
