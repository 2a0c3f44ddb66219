import { styled } from 'styled-components';
import { controlCss } from '../field/field.styles';

export const StyledInput = styled.input`
  ${controlCss}
`;

export const StyledTextArea = styled.textarea`
  ${controlCss}
  resize: vertical;
`;
