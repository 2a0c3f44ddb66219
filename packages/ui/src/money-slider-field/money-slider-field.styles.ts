import { styled } from 'styled-components';
import { controlCss } from '../field/field.styles';

export const AmountInput = styled.input`
  ${controlCss}
  width: 12rem;
  max-width: 100%;
  font-weight: ${({ theme }) => theme.fontWeight.bold};
  font-variant-numeric: tabular-nums;
  text-align: right;
`;
