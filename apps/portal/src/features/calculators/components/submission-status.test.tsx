import { defaultTheme } from '@firm/ui';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { ThemeProvider } from 'styled-components';
import { describe, expect, it } from 'vitest';

import type { Submission } from '../stores/create-draft-store';

import { SubmissionStatus } from './submission-status';

const failed: Submission<unknown> = {
  status: 'failed',
  id: 1,
  body: {},
  message: 'The connection to our server failed.',
};

/** Try again starts a post that is still on its way when the test looks. */
function Harness() {
  const [submission, setSubmission] = useState<Submission<unknown>>(failed);
  return (
    <ThemeProvider theme={defaultTheme}>
      <SubmissionStatus
        submission={submission}
        onRetry={() => setSubmission({ status: 'sending', id: 2, body: {}, key: 'k' })}
      />
    </ThemeProvider>
  );
}

describe('SubmissionStatus', () => {
  it('should keep keyboard focus on the status when Try again is replaced by the sending note', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(screen.getByText('Sending your details to our team…')).toBeInTheDocument();
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement).toContainElement(
      screen.getByText('Sending your details to our team…'),
    );
  });
});
