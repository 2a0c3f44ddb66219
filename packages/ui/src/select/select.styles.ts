import { styled } from 'styled-components';
import { controlCss } from '../field/field.styles';

/** A chevron drawn in the text colour; `%23` is `#` in a data URL. */
const chevron = (colour: string) =>
  `url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 20 20'%3E%3Cpath d='M5 7.5l5 5 5-5' fill='none' stroke='${colour.replace('#', '%23')}' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'/%3E%3C/svg%3E")`;

export const StyledSelect = styled.select`
  ${controlCss}
  appearance: none;
  padding-right: 2.5rem;
  background-image: ${({ theme }) => chevron(theme.color.text)};
  background-repeat: no-repeat;
  background-position: right 0.75rem center;
  background-size: 1.25rem;
  cursor: pointer;
`;
