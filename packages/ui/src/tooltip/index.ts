export { Tooltip } from './tooltip';
export type { TooltipProps, TooltipState } from './tooltip';
