import { useNavigation } from 'react-router-dom';
import styled, { keyframes } from 'styled-components';

/**
 * A thin bar at the top of the window while the next page (its code or its loader) is on the way. It fades in after
 * a moment, so quick navigations do not flash it. It sits in a labelled region of its own: outside every landmark,
 * screen reader users moving by landmark never met it (axe's `region`; found by the twenty-third session's portal
 * probe, during a slow page load).
 */
export function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return <NavigationProgressBar />;
}

/** The bar itself, in its region. */
export function NavigationProgressBar() {
  return (
    <section aria-label="Page loading">
      <Bar role="progressbar" aria-label="Loading the page" />
    </section>
  );
}

const appear = keyframes`
  from { opacity: 0; }
  to { opacity: 1; }
`;

const slide = keyframes`
  from { transform: translateX(-100%); }
  to { transform: translateX(250%); }
`;

const Bar = styled.div`
  position: fixed;
  inset: 0 0 auto;
  z-index: 20;
  height: 3px;
  overflow: hidden;
  opacity: 0;
  animation: ${appear} 1ms linear 150ms forwards;

  &::after {
    content: '';
    display: block;
    width: 40%;
    height: 100%;
    background: ${({ theme }) => theme.color.primary};
    animation: ${slide} 1.2s ease-in-out infinite;
  }

  ${({ theme }) => theme.media.reducedMotion} {
    &::after {
      width: 100%;
      animation: none;
    }
  }
`;
