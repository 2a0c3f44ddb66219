import { styled } from 'styled-components';
import { controlCss } from '../field/field.styles';

export const StyledInput = styled.input`
  ${controlCss}
`;
