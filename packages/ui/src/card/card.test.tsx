import { screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from '../test/axe';
import { renderWithTheme } from '../test/render';
import { Card } from './card';

function RouterLikeLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <a href={`/app${to}`} data-router-link="">
      {children}
    </a>
  );
}

describe('Card', () => {
  describe('given an image with alternative text, a title, text and a link', () => {
    const card = (
      <Card
        title="Riverside apartments"
        text="How a 40-unit scheme was insured from site acquisition to completion."
        imageUrl="/media/riverside.jpg"
        imageAlt="Apartment block by a river"
        href="/demo/article?id=riverside&type=case_study"
      />
    );

    it('should show the image with its alternative text', () => {
      renderWithTheme(card);
      expect(screen.getByRole('img', { name: 'Apartment block by a river' })).toHaveAttribute(
        'src',
        '/media/riverside.jpg',
      );
    });

    it('should link the title heading to the card’s address', () => {
      renderWithTheme(card);
      const heading = screen.getByRole('heading', { level: 3, name: 'Riverside apartments' });
      expect(screen.getByRole('link', { name: 'Riverside apartments' })).toHaveAttribute(
        'href',
        '/demo/article?id=riverside&type=case_study',
      );
      expect(heading).toContainElement(screen.getByRole('link'));
    });

    it('should show the text clamped to 3 lines', () => {
      renderWithTheme(card);
      expect(screen.getByText(/40-unit scheme/)).toHaveStyle({ WebkitLineClamp: '3' });
    });

    it('should have a single link, so the whole card is one click target', () => {
      renderWithTheme(card);
      expect(screen.getAllByRole('link')).toHaveLength(1);
    });

    it('should have no accessibility violations', async () => {
      const { container } = renderWithTheme(card);
      await expectNoAxeViolations(container);
    });
  });

  describe('given an image without alternative text', () => {
    it('should treat the image as decorative', () => {
      const { container } = renderWithTheme(
        <Card
          title="Insight"
          imageUrl="/media/insight.jpg"
          href="/demo/article?id=1&type=insight"
        />,
      );
      expect(container.querySelector('img')).toHaveAttribute('alt', '');
      expect(screen.queryByRole('img')).not.toBeInTheDocument();
    });
  });

  describe('given no image and no text', () => {
    it('should show only the title link', () => {
      const { container } = renderWithTheme(<Card title="Insight" href="/x" />);
      expect(container.querySelector('img')).not.toBeInTheDocument();
      expect(container.querySelector('p')).not.toBeInTheDocument();
    });
  });

  describe('given a link component', () => {
    it('should render the link with it, passing the address as `to`', () => {
      renderWithTheme(<Card title="Insight" href="/demo/info" linkComponent={RouterLikeLink} />);
      const link = screen.getByRole('link', { name: 'Insight' });
      expect(link).toHaveAttribute('data-router-link');
      expect(link).toHaveAttribute('href', '/app/demo/info');
    });
  });

  describe('given a heading level', () => {
    it('should use it for the title', () => {
      renderWithTheme(<Card title="Insight" href="/x" headingLevel={2} />);
      expect(screen.getByRole('heading', { level: 2, name: 'Insight' })).toBeInTheDocument();
    });
  });
});
