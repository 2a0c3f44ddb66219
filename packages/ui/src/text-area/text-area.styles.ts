import { styled } from 'styled-components';
import { controlCss } from '../field/field.styles';

export const StyledTextArea = styled.textarea`
  ${controlCss}
  resize: vertical;
`;
