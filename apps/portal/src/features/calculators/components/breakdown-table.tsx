import type { ReactNode } from 'react';
import { styled } from 'styled-components';

export interface BreakdownRow {
  /** Stable key of the row. */
  id: string;
  label: ReactNode;
  value: string;
  /** A total: shown in bold above a rule. */
  total?: boolean;
}

export interface BreakdownTableProps {
  caption: string;
  rows: readonly BreakdownRow[];
}

/** The lines that make up an estimate: each rate or amount with what it is. */
export function BreakdownTable({ caption, rows }: BreakdownTableProps) {
  return (
    <Table>
      <caption>{caption}</caption>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} data-total={row.total ? 'true' : undefined}>
            <th scope="row">{row.label}</th>
            <td>{row.value}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: ${({ theme }) => theme.fontSize.sm};

  caption {
    margin-bottom: ${({ theme }) => theme.space.sm};
    text-align: left;
    font-weight: ${({ theme }) => theme.fontWeight.bold};
    font-size: ${({ theme }) => theme.fontSize.md};
  }

  th,
  td {
    padding: ${({ theme }) => `${theme.space.sm} 0`};
    border-bottom: 1px solid ${({ theme }) => theme.color.divider};
    vertical-align: top;
  }

  th {
    text-align: left;
    font-weight: ${({ theme }) => theme.fontWeight.regular};
    padding-right: ${({ theme }) => theme.space.md};
  }

  td {
    text-align: right;
    font-variant-numeric: tabular-nums;
    white-space: nowrap;
  }

  tr[data-total='true'] th,
  tr[data-total='true'] td {
    border-top: 2px solid ${({ theme }) => theme.color.text};
    font-weight: ${({ theme }) => theme.fontWeight.bold};
  }
`;
