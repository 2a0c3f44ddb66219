export { Accordion, AccordionItem } from './accordion';
export type {
  AccordionHeadingLevel,
  AccordionItemProps,
  AccordionItemState,
  AccordionProps,
} from './accordion';
