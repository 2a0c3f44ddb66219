import { GUIDE_STAGES, insuranceGuide } from '@firm/pricing';
import { VisuallyHidden } from '@firm/ui';
import { styled } from 'styled-components';

import { GuideTag } from '@/components/ui/guide-tag';
import { ScrollHint, Scroller, stickyFirstColumn } from '@/components/ui/scroll-table';

const CAPTION_ID = 'guide-matrix-caption';

/**
 * The guide's matrix: the 15 insurances by development stage, each cell naming who buys the cover
 * at that stage (empty when it is not needed then). Scrolls sideways on narrow screens.
 */
export function GuideMatrix() {
  return (
    <>
      <ScrollHint>Scroll sideways to see every stage.</ScrollHint>
      <Scroller role="region" aria-labelledby={CAPTION_ID} tabIndex={0}>
        <Table>
          <caption id={CAPTION_ID}>Insurances by development stage</caption>
          <thead>
            <tr>
              <th scope="col">Insurance</th>
              {GUIDE_STAGES.map((stage) => (
                <th scope="col" key={stage}>
                  {stage}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {insuranceGuide.map((row) => (
              <tr key={row.insurance}>
                <th scope="row">{row.insurance}</th>
                {GUIDE_STAGES.map((stage) => {
                  const tag = row.stages[stage];
                  return (
                    <td key={stage}>
                      {tag === null ? (
                        <VisuallyHidden>Not needed</VisuallyHidden>
                      ) : (
                        <GuideTag tag={tag} />
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </Table>
      </Scroller>
    </>
  );
}

const Table = styled.table`
  width: 100%;
  min-width: 44rem;
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
    padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
    border-top: 1px solid ${({ theme }) => theme.color.divider};
    text-align: left;
    vertical-align: middle;
  }

  thead th {
    background: ${({ theme }) => theme.color.background};
    white-space: nowrap;
  }

  tbody th {
    width: 8.5rem;
    font-weight: ${({ theme }) => theme.fontWeight.medium};

    ${({ theme }) => theme.media.md} {
      width: 13rem;
    }
  }

  /* The insurance stays in view while the other columns scroll sideways. */
  ${stickyFirstColumn}

  tbody td + td,
  tbody th + td {
    border-left: 1px solid ${({ theme }) => theme.color.divider};
  }
`;
