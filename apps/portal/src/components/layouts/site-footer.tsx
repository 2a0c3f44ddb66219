import styled from 'styled-components';

import { WAITING_FOR_ANSWER_ATTRIBUTE } from '@/components/ui/late-answer-place';
import { paths } from '@/config/paths';
import type { Client } from '@/types/api';

/** The footer banner's height (decisions.md §5). */
export const FOOTER_BANNER_HEIGHT_PX = 243;

interface SiteFooterProps {
  client: Client;
  /** The due-diligence page hides the banner (spec §2); the regulatory text stays on every page. */
  showBanner: boolean;
}

export function SiteFooter({ client, showBanner }: SiteFooterProps) {
  return (
    <Footer>
      {showBanner ? (
        <Banner>
          <BannerTitle>Request Insurance Due Diligence Report</BannerTitle>
          <Blurb>{client.footer.blurb}</Blurb>
          {/* A plain link on purpose: 'Get in Touch' is a full page navigation (spec §1). */}
          <GetInTouch href={paths.app.dueDiligence(client.prefix)}>Get in Touch</GetInTouch>
        </Banner>
      ) : null}
      <Regulatory>{client.footer.regulatory}</Regulatory>
    </Footer>
  );
}

const Footer = styled.footer`
  border-top: 1px solid ${({ theme }) => theme.color.divider};

  /* Left out while the page waits for an answer later than its loader's wait, and drawn anew under the answer
     when it comes: moved there, it would be a layout shift (components/ui/late-answer-place.tsx). */
  :root:has([${WAITING_FOR_ANSWER_ATTRIBUTE}]) & {
    display: none;
  }
`;

const Banner = styled.div`
  box-sizing: border-box;
  /* Exactly the banner height where the text fits; on phones it may grow rather than hide the blurb. */
  min-height: ${FOOTER_BANNER_HEIGHT_PX}px;
  display: flex;
  flex-direction: column;
  justify-content: center;
  align-items: flex-start;
  gap: ${({ theme }) => theme.space.sm};
  padding: ${({ theme }) => `${theme.space.md} ${theme.space.lg}`};
  color: ${({ theme }) => theme.color.onPrimary};
  background: ${({ theme }) => theme.color.primary};

  ${({ theme }) => theme.media.md} {
    height: ${FOOTER_BANNER_HEIGHT_PX}px;
  }
`;

const BannerTitle = styled.h2`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSize.xl};
  line-height: ${({ theme }) => theme.lineHeight.tight};
`;

const Blurb = styled.p`
  margin: 0;
  max-width: 60rem;
  font-size: ${({ theme }) => theme.fontSize.sm};
`;

const GetInTouch = styled.a`
  display: inline-flex;
  align-items: center;
  min-height: 2.75rem;
  padding: ${({ theme }) => `${theme.space.xs} ${theme.space.lg}`};
  border-radius: ${({ theme }) => theme.radius.md};
  font-weight: ${({ theme }) => theme.fontWeight.bold};
  color: ${({ theme }) => theme.color.primary};
  background: ${({ theme }) => theme.color.onPrimary};
  text-decoration: none;

  &:hover {
    text-decoration: underline;
  }

  &:focus-visible {
    outline-color: ${({ theme }) => theme.color.onPrimary};
  }
`;

const Regulatory = styled.p`
  margin: 0;
  padding: ${({ theme }) => `${theme.space.md} ${theme.space.lg}`};
  font-size: ${({ theme }) => theme.fontSize.xs};
  color: ${({ theme }) => theme.color.muted};
  background: ${({ theme }) => theme.color.surface};
`;
