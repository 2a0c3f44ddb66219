import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';

import { MAIN_CONTENT_ID } from '@/components/layouts/app-layout';
import { Notice } from '@/components/ui/notice';
import { PageHeading } from '@/components/ui/page-heading';
import { paths } from '@/config/paths';
import { DueDiligenceForm } from '@/features/due-diligence/components/due-diligence-form';
import { useClient } from '@/hooks/use-client';
import { recordActivity } from '@/lib/activity';

/** The thank-you text on ?success=1 (spec §2). */
export const THANK_YOU = 'Thank you we have received your submission and will be in touch shortly';

/** /{client}/due-diligence: the request form, or the thank-you text once it has been received. */
export function Component() {
  const { prefix, client } = useClient();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const success = searchParams.get('success') === '1';

  // ?success=1 is the same path, so the hub's focus-on-navigation does not run; the form (and the focused
  // Submit request) is gone: focus the main area, where the thank-you text is, instead of the document.
  useEffect(() => {
    const active = document.activeElement;
    if (success && (active === null || active === document.body)) {
      document.getElementById(MAIN_CONTENT_ID)?.focus({ preventScroll: true });
    }
  }, [success]);

  return (
    <>
      <PageHeading
        documentTitle="Request Due Diligence"
        lead={
          success
            ? undefined
            : 'Tell us about your project and we will check that its insurance programme is complete, at the right levels and with the right providers.'
        }
      >
        Request Due Diligence
      </PageHeading>
      {success ? (
        <>
          <Notice tone="success">{THANK_YOU}</Notice>
          <p>
            <Link to={paths.app.dashboard(prefix)}>Back to the dashboard</Link>
          </p>
        </>
      ) : (
        <DueDiligenceForm
          prefix={prefix}
          user={{
            email: client.email,
            fullName: `${client.first_name} ${client.last_name}`.trim(),
          }}
          onSubmitted={() => {
            recordActivity(prefix, 'submit', 'due-diligence');
            navigate(paths.app.dueDiligence(prefix, { success: true }));
          }}
        />
      )}
    </>
  );
}
