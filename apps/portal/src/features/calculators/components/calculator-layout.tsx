import { Button } from '@firm/ui';
import type { FormEvent, ReactNode } from 'react';
import { styled } from 'styled-components';

import { PageHeading } from '@/components/ui/page-heading';

import type { CalculatorForm } from '../hooks/use-calculator';

import { ContactFields, TELEPHONE, type ContactFieldsProps } from './contact-fields';
import { EstimatePanel } from './estimate-panel';
import type { HeadlineFigureProps } from './headline-figure';

export interface CalculatorLayoutProps {
  /** The page's `<h1>`, the spec's heading word for word. */
  title: string;
  intro: ReactNode;
  /** Prefix of the form's input ids (as given to useCalculator). */
  idPrefix: string;
  /** The calculator's state and actions, from useCalculator. */
  calculator: CalculatorForm;
  /** The project inputs. */
  project: ReactNode;
  /** The contact telephone input's name, label and message, when not the usual `telephone`. */
  telephone?: ContactFieldsProps['telephone'];
  /** The estimate's headline figure, or `null` before the first Calculate. */
  headline: HeadlineFigureProps | null;
  /** The estimate's other figures, or `null` before the first Calculate. */
  figures: ReactNode | null;
}

/**
 * A calculator page: heading, the form (project, then contact details, then Calculate) and the estimate
 * panel, wired to the calculator's state; each calculator brings its own inputs and figures.
 */
export function CalculatorLayout({
  title,
  intro,
  idPrefix,
  calculator,
  project,
  telephone = TELEPHONE,
  headline,
  figures,
}: CalculatorLayoutProps) {
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    calculator.calculate();
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
            <ContactFields
              idPrefix={idPrefix}
              value={calculator.contact}
              onChange={calculator.setContact}
              invalid={calculator.invalidContactFields}
              telephone={telephone}
            />
          </Fieldset>
          {calculator.inputError ? (
            <InputError role="alert">{calculator.inputError}</InputError>
          ) : null}
          <Actions>
            <Button type="submit" loading={calculator.submission.status === 'sending'}>
              Calculate
            </Button>
          </Actions>
        </Form>
        <EstimatePanel
          ref={calculator.estimateRef}
          headline={headline}
          stale={calculator.stale}
          amountRefused={calculator.amountRefused}
          contactChanged={calculator.contactChanged}
          submission={calculator.submission}
          onRetry={calculator.retry}
        >
          {figures}
        </EstimatePanel>
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
