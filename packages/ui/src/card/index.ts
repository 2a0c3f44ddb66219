export { Card } from './card';
export type { CardLinkProps, CardProps } from './card';
