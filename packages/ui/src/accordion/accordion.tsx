import {
  createContext,
  use,
  useEffect,
  useId,
  useMemo,
  useState,
  type ComponentPropsWithRef,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { useControllableState } from '../utils/use-controllable-state';
import {
  Chevron,
  Content,
  ContentBody,
  ContentClip,
  ItemHeading,
  StyledAccordion,
  StyledItem,
  Trigger,
  TriggerTitle,
} from './accordion.styles';

export type AccordionHeadingLevel = 2 | 3 | 4 | 5 | 6;

/** `open` or `closed`, exposed as `data-state` on the item, its trigger and its content. */
export type AccordionItemState = 'open' | 'closed';

interface AccordionContextValue {
  openValue: string | null;
  headingLevel: AccordionHeadingLevel;
  toggle(itemValue: string): void;
}

const AccordionContext = createContext<AccordionContextValue | null>(null);

const TRIGGER_ATTRIBUTE = 'data-accordion-trigger';
const ROOT_ATTRIBUTE = 'data-accordion-root';

export interface AccordionProps extends Omit<
  ComponentPropsWithRef<'div'>,
  'defaultValue' | 'onChange'
> {
  /** The open item's value, or `null` for none (controlled). */
  value?: string | null;
  /** The item open at first when uncontrolled. Defaults to none. */
  defaultValue?: string | null;
  /** Called with the newly open item's value, or `null` when the open item is collapsed. */
  onValueChange?(value: string | null): void;
  /** Level of the headings that wrap the item triggers. Defaults to 3. */
  headingLevel?: AccordionHeadingLevel;
  children?: ReactNode;
}

/**
 * The WAI-ARIA accordion: a stack of headings whose buttons show and hide a panel each. One item is
 * open at a time and the open one can be collapsed. Arrow Up/Down move between the headers (wrapping),
 * Home and End go to the first and last; Enter and Space toggle (native buttons).
 */
export function Accordion({
  value,
  defaultValue = null,
  onValueChange,
  headingLevel = 3,
  onKeyDown,
  children,
  ...rest
}: AccordionProps) {
  const [openValue, setOpenValue] = useControllableState<string | null>({
    value,
    defaultValue,
    onChange: onValueChange,
  });

  // Animate only changes made after mount, not the panel that is open when the page loads.
  const [animate, setAnimate] = useState(false);
  useEffect(() => setAnimate(true), []);

  const context = useMemo<AccordionContextValue>(
    () => ({
      openValue,
      headingLevel,
      toggle: (itemValue) => setOpenValue(openValue === itemValue ? null : itemValue),
    }),
    [openValue, headingLevel, setOpenValue],
  );

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    onKeyDown?.(event);
    if (event.defaultPrevented) return;
    moveFocusBetweenTriggers(event);
  };

  return (
    <AccordionContext value={context}>
      <StyledAccordion
        data-ui="accordion"
        data-accordion-root=""
        data-accordion-animate={animate ? '' : undefined}
        {...rest}
        onKeyDown={handleKeyDown}
      >
        {children}
      </StyledAccordion>
    </AccordionContext>
  );
}

export interface AccordionItemProps extends Omit<ComponentPropsWithRef<'div'>, 'title'> {
  /** Unique among the accordion's items; what `value` / `onValueChange` speak about. */
  value: string;
  /** The heading text, shown on the trigger button. */
  title: ReactNode;
  /** Cannot be toggled or focused. */
  disabled?: boolean;
  children?: ReactNode;
}

/** One section of an `Accordion`: a heading with a toggle button and the panel it controls. */
export function AccordionItem({
  value,
  title,
  disabled = false,
  children,
  ...rest
}: AccordionItemProps) {
  const context = use(AccordionContext);
  if (!context) {
    throw new Error('AccordionItem must be rendered inside an Accordion.');
  }
  const baseId = `accordion-${useId()}`;
  const triggerId = `${baseId}-trigger`;
  const contentId = `${baseId}-content`;
  const open = context.openValue === value;
  const state: AccordionItemState = open ? 'open' : 'closed';

  return (
    <StyledItem data-ui="accordion-item" data-state={state} {...rest}>
      <ItemHeading as={`h${context.headingLevel}`} data-state={state}>
        <Trigger
          type="button"
          id={triggerId}
          aria-expanded={open}
          aria-controls={contentId}
          data-state={state}
          disabled={disabled}
          onClick={() => context.toggle(value)}
          data-accordion-trigger=""
        >
          <TriggerTitle>{title}</TriggerTitle>
          <Chevron viewBox="0 0 20 20" aria-hidden="true" focusable="false">
            <path
              d="M5 7.5l5 5 5-5"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </Chevron>
        </Trigger>
      </ItemHeading>
      <Content
        id={contentId}
        role="region"
        aria-labelledby={triggerId}
        data-state={state}
        hidden={!open}
      >
        <ContentClip>
          <ContentBody>{children}</ContentBody>
        </ContentClip>
      </Content>
    </StyledItem>
  );
}

/**
 * Arrow Down / Arrow Up move focus to the next / previous header (wrapping round), Home and End to the
 * first and last, as the WAI-ARIA accordion pattern describes. Only this accordion's own enabled
 * triggers count, so nested accordions keep their own order.
 */
function moveFocusBetweenTriggers(event: KeyboardEvent<HTMLDivElement>): void {
  const root = event.currentTarget;
  const target = event.target;
  if (!(target instanceof HTMLElement) || !target.hasAttribute(TRIGGER_ATTRIBUTE)) return;
  const triggers = Array.from(
    root.querySelectorAll<HTMLButtonElement>(`[${TRIGGER_ATTRIBUTE}]`),
  ).filter((trigger) => trigger.closest(`[${ROOT_ATTRIBUTE}]`) === root && !trigger.disabled);
  const index = triggers.indexOf(target as HTMLButtonElement);
  if (index === -1) return;
  const next = nextTriggerIndex(event.key, index, triggers.length);
  if (next === null) return;
  event.preventDefault();
  triggers[next]?.focus();
}

/**
 * Where focus goes from header `index` of `count` for a key, or `null` when the key does not move it.
 *
 * @example
 * nextTriggerIndex('ArrowDown', 2, 3); // 0 (wraps to the first)
 * nextTriggerIndex('End', 0, 3); // 2
 * nextTriggerIndex('Enter', 0, 3); // null
 */
export function nextTriggerIndex(key: string, index: number, count: number): number | null {
  switch (key) {
    case 'ArrowDown':
      return (index + 1) % count;
    case 'ArrowUp':
      return (index - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
