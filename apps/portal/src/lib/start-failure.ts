/**
 * The page that says the portal's code could not be fetched (the connection dropped, the server restarting on a
 * new build), in plain DOM: React may be what failed. It offers the reload that fetches the code again: a browser
 * keeps a failed module import for the life of the page. Shown by the entry (`src/main.tsx`) when the app's code
 * could not be fetched, and by the app when the error pages' code could not be (`app/routes/error-pages.tsx`).
 * Found by the eighteenth session's portal probe: the loading note stayed for ever, with no word and no way on.
 * Drawn inside the hub's main area, it is a block (`landmark` 'div'), not a second main landmark.
 */
export function showStartFailure(container: Element, landmark: 'main' | 'div' = 'main'): void {
  const main = document.createElement(landmark);
  main.className = 'boot-note boot-failed';
  const heading = document.createElement('h1');
  heading.textContent = 'The portal could not be loaded';
  heading.tabIndex = -1;
  const text = document.createElement('p');
  text.textContent = 'Check your connection, then load the page again.';
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Load the page again';
  button.addEventListener('click', () => window.location.reload());
  main.append(heading, text, button);
  container.replaceChildren(main);
  document.title = 'The portal could not be loaded – Client Hub';
  heading.focus();
}
