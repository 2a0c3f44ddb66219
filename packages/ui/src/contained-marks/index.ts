export { containMarksCss } from './contained-marks.styles';
