import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { expectNoAxeViolations } from '../test/axe';
import { renderWithTheme } from '../test/render';
import { Accordion, AccordionItem, nextTriggerIndex, type AccordionProps } from './accordion';

function Topics(props: AccordionProps) {
  return (
    <Accordion {...props}>
      <AccordionItem value="car" title="Contractors all risks">
        <p>Covers the works during construction.</p>
      </AccordionItem>
      <AccordionItem value="pi" title="Professional indemnity">
        <p>Covers negligent design or advice.</p>
      </AccordionItem>
      <AccordionItem value="warranty" title="Structural warranty">
        <p>Covers latent defects after completion.</p>
      </AccordionItem>
    </Accordion>
  );
}

const trigger = (name: string) => screen.getByRole('button', { name });
const panel = (text: string) => screen.getByText(text).closest('[data-ui="accordion-item"] > [id]');

describe('Accordion', () => {
  describe('given no open item', () => {
    it('should render each title as a heading wrapping a collapsed button', () => {
      renderWithTheme(<Topics />);
      const heading = screen.getByRole('heading', { level: 3, name: 'Contractors all risks' });
      expect(heading).toContainElement(trigger('Contractors all risks'));
      expect(trigger('Contractors all risks')).toHaveAttribute('aria-expanded', 'false');
      expect(trigger('Contractors all risks')).toHaveAttribute('data-state', 'closed');
    });

    it('should keep every panel in the DOM, hidden', () => {
      renderWithTheme(<Topics />);
      expect(screen.getByText('Covers the works during construction.')).not.toBeVisible();
      expect(panel('Covers the works during construction.')).toHaveAttribute('hidden');
      expect(screen.queryByRole('region')).not.toBeInTheDocument();
    });

    describe('when a header is clicked', () => {
      it('should open its panel as a region labelled by the header', async () => {
        const onValueChange = vi.fn();
        const { user } = renderWithTheme(<Topics onValueChange={onValueChange} />);
        await user.click(trigger('Professional indemnity'));
        const region = screen.getByRole('region', { name: 'Professional indemnity' });
        expect(region).toBeVisible();
        expect(region).toHaveTextContent('Covers negligent design or advice.');
        expect(trigger('Professional indemnity')).toHaveAttribute('aria-expanded', 'true');
        expect(trigger('Professional indemnity')).toHaveAttribute('aria-controls', region.id);
        expect(region).toHaveAttribute('data-state', 'open');
        expect(region.closest('[data-ui="accordion-item"]')).toHaveAttribute('data-state', 'open');
        expect(onValueChange).toHaveBeenCalledWith('pi');
      });
    });
  });

  describe('given an open item', () => {
    describe('when Enter is pressed on its header', () => {
      it('should collapse it', async () => {
        const onValueChange = vi.fn();
        const { user } = renderWithTheme(
          <Topics defaultValue="car" onValueChange={onValueChange} />,
        );
        trigger('Contractors all risks').focus();
        await user.keyboard('{Enter}');
        expect(trigger('Contractors all risks')).toHaveAttribute('aria-expanded', 'false');
        expect(screen.getByText('Covers the works during construction.')).not.toBeVisible();
        expect(onValueChange).toHaveBeenCalledWith(null);
      });
    });

    describe('when Space is pressed on its header', () => {
      it('should collapse it', async () => {
        const { user } = renderWithTheme(<Topics defaultValue="car" />);
        trigger('Contractors all risks').focus();
        await user.keyboard(' ');
        expect(trigger('Contractors all risks')).toHaveAttribute('aria-expanded', 'false');
      });
    });

    describe('when another header is activated', () => {
      it('should open that item and close the first, keeping one open at a time', async () => {
        const { user } = renderWithTheme(<Topics defaultValue="car" />);
        trigger('Structural warranty').focus();
        await user.keyboard('{Enter}');
        expect(trigger('Structural warranty')).toHaveAttribute('aria-expanded', 'true');
        expect(trigger('Contractors all risks')).toHaveAttribute('aria-expanded', 'false');
        expect(screen.getAllByRole('region')).toHaveLength(1);
      });
    });

    it('should have no accessibility violations', async () => {
      const { container } = renderWithTheme(<Topics defaultValue="car" />);
      await expectNoAxeViolations(container);
    });
  });

  describe('given focus on a header', () => {
    describe('when ArrowDown is pressed', () => {
      it('should move focus to the next header', async () => {
        const { user } = renderWithTheme(<Topics />);
        trigger('Contractors all risks').focus();
        await user.keyboard('{ArrowDown}');
        expect(trigger('Professional indemnity')).toHaveFocus();
      });
    });

    describe('when ArrowDown is pressed on the last header', () => {
      it('should wrap to the first header', async () => {
        const { user } = renderWithTheme(<Topics />);
        trigger('Structural warranty').focus();
        await user.keyboard('{ArrowDown}');
        expect(trigger('Contractors all risks')).toHaveFocus();
      });
    });

    describe('when ArrowUp is pressed on the first header', () => {
      it('should wrap to the last header', async () => {
        const { user } = renderWithTheme(<Topics />);
        trigger('Contractors all risks').focus();
        await user.keyboard('{ArrowUp}');
        expect(trigger('Structural warranty')).toHaveFocus();
      });
    });

    describe('when End and then Home are pressed', () => {
      it('should move focus to the last and then the first header', async () => {
        const { user } = renderWithTheme(<Topics />);
        trigger('Professional indemnity').focus();
        await user.keyboard('{End}');
        expect(trigger('Structural warranty')).toHaveFocus();
        await user.keyboard('{Home}');
        expect(trigger('Contractors all risks')).toHaveFocus();
      });
    });

    describe('when the arrows are pressed', () => {
      it('should not change which item is open', async () => {
        const { user } = renderWithTheme(<Topics defaultValue="pi" />);
        trigger('Contractors all risks').focus();
        await user.keyboard('{ArrowDown}{ArrowDown}{Home}');
        expect(trigger('Professional indemnity')).toHaveAttribute('aria-expanded', 'true');
      });
    });

    describe('when Tab is pressed on an open item', () => {
      it('should move into the panel content, not to the next header', async () => {
        const { user } = renderWithTheme(
          <Accordion defaultValue="a">
            <AccordionItem value="a" title="First">
              <a href="#details">Details</a>
            </AccordionItem>
            <AccordionItem value="b" title="Second">
              Second body
            </AccordionItem>
          </Accordion>,
        );
        trigger('First').focus();
        await user.tab();
        expect(screen.getByRole('link', { name: 'Details' })).toHaveFocus();
      });
    });
  });

  describe('given a disabled item', () => {
    it('should be skipped by the arrow keys', async () => {
      const { user } = renderWithTheme(
        <Accordion>
          <AccordionItem value="a" title="First">
            A
          </AccordionItem>
          <AccordionItem value="b" title="Second" disabled>
            B
          </AccordionItem>
          <AccordionItem value="c" title="Third">
            C
          </AccordionItem>
        </Accordion>,
      );
      trigger('First').focus();
      await user.keyboard('{ArrowDown}');
      expect(trigger('Third')).toHaveFocus();
    });
  });

  describe('given a nested accordion', () => {
    it('should move focus only among the headers of the accordion that has focus', async () => {
      const { user } = renderWithTheme(
        <Accordion defaultValue="outer-1">
          <AccordionItem value="outer-1" title="Outer one">
            <Accordion>
              <AccordionItem value="inner-1" title="Inner one">
                i1
              </AccordionItem>
              <AccordionItem value="inner-2" title="Inner two">
                i2
              </AccordionItem>
            </Accordion>
          </AccordionItem>
          <AccordionItem value="outer-2" title="Outer two">
            o2
          </AccordionItem>
        </Accordion>,
      );
      trigger('Inner two').focus();
      await user.keyboard('{ArrowDown}');
      expect(trigger('Inner one')).toHaveFocus();
      trigger('Outer one').focus();
      await user.keyboard('{ArrowDown}');
      expect(trigger('Outer two')).toHaveFocus();
    });
  });

  describe('given a controlled value', () => {
    function Controlled() {
      const [value, setValue] = useState<string | null>('warranty');
      return (
        <>
          <Topics value={value} onValueChange={setValue} />
          <p data-testid="open-item">{value ?? 'none'}</p>
          <button type="button" onClick={() => setValue('car')}>
            Open the first topic
          </button>
        </>
      );
    }

    it('should open the item the parent chooses', async () => {
      const { user } = renderWithTheme(<Controlled />);
      expect(trigger('Structural warranty')).toHaveAttribute('aria-expanded', 'true');
      await user.click(screen.getByRole('button', { name: 'Open the first topic' }));
      expect(trigger('Contractors all risks')).toHaveAttribute('aria-expanded', 'true');
      expect(trigger('Structural warranty')).toHaveAttribute('aria-expanded', 'false');
    });

    describe('when the open header is clicked', () => {
      it('should report null and close it', async () => {
        const { user } = renderWithTheme(<Controlled />);
        await user.click(trigger('Structural warranty'));
        expect(screen.getByTestId('open-item')).toHaveTextContent('none');
        expect(screen.queryByRole('region')).not.toBeInTheDocument();
      });
    });

    describe('when the parent ignores the change', () => {
      it('should keep showing the parent’s value', async () => {
        const onValueChange = vi.fn();
        const { user } = renderWithTheme(<Topics value="car" onValueChange={onValueChange} />);
        await user.click(trigger('Professional indemnity'));
        expect(onValueChange).toHaveBeenCalledWith('pi');
        expect(trigger('Contractors all risks')).toHaveAttribute('aria-expanded', 'true');
        expect(trigger('Professional indemnity')).toHaveAttribute('aria-expanded', 'false');
      });
    });
  });

  describe('given a heading level', () => {
    it('should wrap the triggers in headings of that level', () => {
      renderWithTheme(<Topics headingLevel={2} />);
      expect(screen.getAllByRole('heading', { level: 2 })).toHaveLength(3);
    });
  });

  describe('given it has mounted', () => {
    it('should animate panels for 300 ms, and not at all under prefers-reduced-motion', () => {
      const { container } = renderWithTheme(<Topics defaultValue="car" />);
      expect(container.querySelector('[data-ui="accordion"]')).toHaveAttribute(
        'data-accordion-animate',
      );
      const css = Array.from(document.querySelectorAll('style'))
        .map((style) => style.textContent)
        .join('\n');
      const panelClass = Array.from(screen.getByRole('region').classList).find((name) =>
        css.includes(`.${name}{display:grid`),
      );
      expect(panelClass).toBeDefined();
      const animated = `[data-accordion-animate] .${panelClass}`;
      expect(css).toContain(
        `${animated}{transition-property:grid-template-rows,opacity,display;transition-duration:300ms;`,
      );
      expect(css).toContain(`@starting-style{${animated}{grid-template-rows:0fr;opacity:0;}`);
      expect(css).toContain(
        `@media (prefers-reduced-motion: reduce){${animated}{transition:none;}`,
      );
    });
  });

  describe('given an AccordionItem outside an Accordion', () => {
    it('should throw a clear error', () => {
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      expect(() =>
        renderWithTheme(
          <AccordionItem value="x" title="Lonely">
            x
          </AccordionItem>,
        ),
      ).toThrow('AccordionItem must be rendered inside an Accordion.');
      vi.restoreAllMocks();
    });
  });
});

describe('nextTriggerIndex', () => {
  it.each([
    ['ArrowDown', 0, 3, 1],
    ['ArrowDown', 2, 3, 0],
    ['ArrowUp', 0, 3, 2],
    ['ArrowUp', 2, 3, 1],
    ['Home', 2, 3, 0],
    ['End', 0, 3, 2],
    ['Enter', 1, 3, null],
    ['ArrowRight', 1, 3, null],
  ] as const)('should move %s from header %i of %i to %s', (key, index, count, expected) => {
    expect(nextTriggerIndex(key, index, count)).toBe(expected);
  });
});
