import { Button } from '@firm/ui';
import type { FormEvent, ReactNode } from 'react';
import { styled } from 'styled-components';

import { PageHeading } from '@/components/ui/page-heading';

export interface CalculatorLayoutProps {
  /** The page's `<h1>`, the spec's heading word for word. */
  title: string;
  intro: ReactNode;
  /** The project inputs. */
  project: ReactNode;
  /** The contact fields. */
  contact: ReactNode;
  /** A problem with the inputs themselves (not with the contact fields). */
  inputError: string | null;
  /** The post of the last estimate is on its way. */
  sending: boolean;
  onCalculate: () => void;
  /** The estimate panel. */
  estimate: ReactNode;
}

/** A calculator page: heading, the form (project, then contact details, then Calculate) and the estimate. */
export function CalculatorLayout({
  title,
  intro,
  project,
  contact,
  inputError,
  sending,
  onCalculate,
  estimate,
}: CalculatorLayoutProps) {
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onCalculate();
  };

  return (
    <Page>
      <PageHeading lead={intro}>{title}</PageHeading>
      <Columns>
        <Form noValidate onSubmit={handleSubmit} aria-label={title}>
          <Fieldset>
            <legend>Your project</legend>
            {project}
          </Fieldset>
          <Fieldset>
            <legend>Your contact details</legend>
            {contact}
          </Fieldset>
          {inputError ? <InputError role="alert">{inputError}</InputError> : null}
          <Actions>
            <Button type="submit" loading={sending}>
              Calculate
            </Button>
          </Actions>
        </Form>
        {estimate}
      </Columns>
    </Page>
  );
}

const Page = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  max-width: 72rem;
`;

const Columns = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.xl};
  align-items: start;

  ${({ theme }) => theme.media.lg} {
    grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);

    & > section {
      position: sticky;
      top: ${({ theme }) => theme.space.lg};
    }
  }
`;

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space.xl};
  padding: ${({ theme }) => theme.space.xl};
  border: 1px solid ${({ theme }) => theme.color.divider};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.color.surface};
`;

const Fieldset = styled.fieldset`
  display: grid;
  gap: ${({ theme }) => theme.space.xl};
  min-width: 0;
  margin: 0;
  padding: 0;
  border: 0;

  legend {
    margin-bottom: ${({ theme }) => theme.space.lg};
    padding: 0;
    font-size: ${({ theme }) => theme.fontSize.lg};
    font-weight: ${({ theme }) => theme.fontWeight.bold};
  }
`;

const InputError = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.color.failure};
  font-weight: ${({ theme }) => theme.fontWeight.medium};
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-start;
`;
