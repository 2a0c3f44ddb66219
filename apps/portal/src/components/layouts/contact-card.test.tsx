import { defaultTheme } from '@firm/ui';
import { render, screen } from '@testing-library/react';
import { ThemeProvider } from 'styled-components';
import { describe, expect, it } from 'vitest';

import { ContactCard } from './contact-card';

function renderCard(contact: { phone: string; email: string }) {
  render(
    <ThemeProvider theme={defaultTheme}>
      <ContactCard contact={contact} />
    </ThemeProvider>,
  );
}

describe('ContactCard', () => {
  it('should link the provider by telephone and e-mail', () => {
    renderCard({ phone: '020 7946 0000', email: 'team@advisory.example' });
    expect(screen.getByRole('link', { name: '020 7946 0000' })).toHaveAttribute(
      'href',
      'tel:02079460000',
    );
    expect(screen.getByRole('link', { name: 'team@advisory.example' })).toHaveAttribute(
      'href',
      'mailto:team@advisory.example',
    );
  });

  describe('given contact details a staff member (or an attacker) made odd', () => {
    it('should link the e-mail shown and nothing more: no hidden Bcc, second recipient or body', () => {
      const email = 'help?bcc=spy%40evil.example&body=Click@b.co,other@evil.example';
      renderCard({ phone: 'tel:+44 20;ext=1 javascript:alert(1)', email });
      const mail = screen.getByRole('link', { name: email });
      const href = mail.getAttribute('href') ?? '';
      const url = new URL(href);
      expect(url.protocol).toBe('mailto:');
      expect(url.search).toBe('');
      expect(href).not.toMatch(/[?,&]/);
      expect(decodeURIComponent(url.pathname)).toBe(email);
      expect(screen.getByRole('link', { name: /^tel:/ })).toHaveAttribute('href', 'tel:442011');
    });
  });
});
