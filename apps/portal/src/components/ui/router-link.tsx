import type { CardLinkProps } from '@firm/ui';
import { Link } from 'react-router-dom';

/** React Router's `Link` in the shape @firm/ui's `Card` expects for its `linkComponent`. */
export function RouterLink({ to, children }: CardLinkProps) {
  return <Link to={to}>{children}</Link>;
}
