import type { ComponentPropsWithRef, ElementType, ReactNode } from 'react';
import { CardBody, CardImage, CardText, CardTitle, StyledCard } from './card.styles';

/** Props a `linkComponent` receives: both `to` (react-router) and `href` (plain anchors) carry the target. */
export interface CardLinkProps {
  to: string;
  href: string;
  children: ReactNode;
}

export interface CardProps extends Omit<ComponentPropsWithRef<'article'>, 'title' | 'children'> {
  /** Heading and accessible name of the link. */
  title: ReactNode;
  /** Summary, clamped to 3 lines. */
  text?: ReactNode;
  imageUrl?: string;
  /** Alternative text of the image; omit when the image is decorative (it then gets `alt=""`). */
  imageAlt?: string;
  /** Where the card leads. */
  href: string;
  /** Renders the link instead of `<a>`, e.g. react-router's `Link`; receives `to` and `href`. */
  linkComponent?: ElementType<CardLinkProps>;
  /** Level of the title heading. Defaults to 3. */
  headingLevel?: 2 | 3 | 4 | 5 | 6;
}

/**
 * A content teaser: optional image, title and up to 3 lines of text. The whole card is clickable
 * through its title link (one tab stop, one accessible name).
 */
export function Card({
  title,
  text,
  imageUrl,
  imageAlt,
  href,
  linkComponent,
  headingLevel = 3,
  ...rest
}: CardProps) {
  const LinkComponent = linkComponent;
  return (
    <StyledCard data-ui="card" {...rest}>
      {imageUrl ? <CardImage src={imageUrl} alt={imageAlt ?? ''} loading="lazy" /> : null}
      <CardBody>
        <CardTitle as={`h${headingLevel}`}>
          {LinkComponent ? (
            <LinkComponent to={href} href={href}>
              {title}
            </LinkComponent>
          ) : (
            <a href={href}>{title}</a>
          )}
        </CardTitle>
        {text != null && text !== '' ? <CardText>{text}</CardText> : null}
      </CardBody>
    </StyledCard>
  );
}
