import type { Page } from '@playwright/test';

import {
  expect,
  expectNoAxeViolations,
  loginMagicLink,
  loginOpen,
  newUser,
  test,
  waitForLoginLink,
} from './fixtures';

/**
 * A black-box run through the states a page reaches after the first paint (a failed post, a session that ended
 * mid-form, a mistyped address), as an outside assessor drives them: keyboard focus must stay with the user,
 * nothing typed may be lost, and every error must say what to do.
 */

/** Ends the page's session on the server, as an idle timeout or a logout in another tab would. */
async function endSession(page: Page, prefix = 'demo') {
  const answer = await page.request.get(`/api/${prefix}/logout`, { maxRedirects: 0 });
  expect(answer.status()).toBe(303);
}

/** What has keyboard focus: never the page itself after an action. */
function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement;
    return element === null || element === document.body ? 'body' : element.tagName;
  });
}

/** Records every alert the page draws from now on, even for a moment; the returned function reads them. */
async function recordAddedAlerts(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { alertsSeen: string[] }).alertsSeen = seen;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          const alerts = [node, ...node.querySelectorAll('*')].filter(
            (element) => element.getAttribute('role') === 'alert',
          );
          for (const alert of alerts) seen.push(alert.textContent ?? '');
        }
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { alertsSeen: string[] }).alertsSeen);
}

/** Fills the login form on the current page (already at /{prefix}/login) and presses Continue. */
async function logInHere(page: Page, user: ReturnType<typeof newUser>) {
  await page.getByLabel('First name').fill(user.first_name);
  await page.getByLabel('Last name').fill(user.last_name);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Phone').fill(user.phone);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/**
 * Asks for a login link from the login page the tab is on, and opens it in the same tab (as a user whose mail
 * opens links in the browser they use): the Continue page, then the hub.
 */
async function logInByLinkHere(page: Page, user: ReturnType<typeof newUser>) {
  const since = Date.now();
  await logInHere(page, user);
  await expect(page.getByText('An email has been sent with a link to log in')).toBeVisible();
  await page.goto(await waitForLoginLink(user.email, since));
  await page.getByRole('button', { name: 'Continue' }).click();
}

test.describe('calculators', () => {
  test('Try again keeps keyboard focus in the estimate, also when it turns into Log in again', async ({
    hub: page,
  }) => {
    await page.goto('/demo/calculator/building-warranty');
    await page.route('**/api/demo/warranty', (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'Calculate' }).click();
    const estimate = page.getByRole('region', { name: 'Your estimate' });
    await expect(
      estimate.getByText('We could not confirm that your details reached our team.'),
    ).toBeVisible();

    // Still no connection: the button the user pressed is replaced while the post is on its way.
    await estimate.getByRole('button', { name: 'Try again' }).focus();
    await page.keyboard.press('Enter');
    await expect(estimate.getByText('The connection to our server failed.')).toBeVisible();
    await expect(estimate.getByRole('button', { name: 'Try again' })).toBeVisible();
    expect(await focused(page)).not.toBe('body');
    expect(await estimate.evaluate((panel) => panel.contains(document.activeElement))).toBe(true);

    // The session ends meanwhile: Try again becomes Log in again, one Tab away.
    await page.unroute('**/api/demo/warranty');
    await endSession(page);
    await estimate.getByRole('button', { name: 'Try again' }).focus();
    await page.keyboard.press('Enter');
    const logInAgain = estimate.getByRole('link', { name: 'Log in again' });
    await expect(logInAgain).toBeVisible();
    expect(await focused(page)).not.toBe('body');
    await page.keyboard.press('Tab');
    await expect(logInAgain).toBeFocused();
    await expectNoAxeViolations(page);
  });

  for (const press of ['Try again', 'Calculate'] as const) {
    test(`an answer lost after the team had the details: ${press} shows the stored reference, not a second one`, async ({
      hub: page,
    }) => {
      await page.goto('/demo/calculator/building-warranty');
      const keys: (string | undefined)[] = [];
      let stored: string | undefined;
      // The first post reaches the server and is stored; its answer never reaches the page.
      await page.route('**/api/demo/warranty', async (route) => {
        keys.push(route.request().headers()['idempotency-key']);
        const answer = await route.fetch();
        expect(answer.status()).toBe(201);
        stored = ((await answer.json()) as { reference: string }).reference;
        await route.abort('internetdisconnected');
      });
      await page.getByRole('button', { name: 'Calculate' }).click();
      const estimate = page.getByRole('region', { name: 'Your estimate' });
      await expect(
        estimate.getByText('We could not confirm that your details reached our team.'),
      ).toBeVisible();
      await page.unroute('**/api/demo/warranty');
      page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().endsWith('/api/demo/warranty')) {
          keys.push(request.headers()['idempotency-key']);
        }
      });

      // Calculate again with nothing changed (found by the fifteenth session's probe: it sent a new key, and the
      // API stored the quote and mailed the team a second time).
      await (press === 'Try again' ? estimate : page).getByRole('button', { name: press }).click();
      await expect(estimate.getByText(`Your reference: ${stored ?? 'none'}`)).toBeVisible();
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
      expect(keys[1]).toBe(keys[0]);
    });
  }

  test('a mistyped e-mail address is highlighted and nothing is sent', async ({ hub: page }) => {
    let posted = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/demo/car')) posted += 1;
    });
    await page.goto('/demo/calculator/contractors-all-risks');
    const email = page.getByRole('textbox', { name: 'Email' });
    await email.fill('ada.example.com');
    await page.getByRole('button', { name: 'Calculate' }).click();

    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toBeFocused();
    await expect(page.getByText('Enter an email address such as name@example.com')).toBeVisible();
    await expect(page.getByText('Estimated premium')).toHaveCount(0);
    await expectNoAxeViolations(page);

    await email.fill('ada@example.com');
    await page.getByRole('button', { name: 'Calculate' }).click();
    await expect(page.getByText(/Your reference: CAR-/)).toBeVisible();
    await expect(email).not.toHaveAttribute('aria-invalid', 'true');
    expect(posted).toBe(1);
  });

  test('Log in again (by a login link, in the same tab) brings the user back to the calculator and its estimate', async ({
    page,
  }) => {
    const user = await loginMagicLink(page, 'northbank', newUser('calc-back'));
    await page.goto('/northbank/calculator/building-warranty');
    await page.getByRole('textbox', { name: 'Sum insured (build cost)' }).fill('7,250,000');
    await endSession(page, 'northbank');
    await page.getByRole('button', { name: 'Calculate' }).click();
    await page.getByRole('link', { name: 'Log in again' }).click();

    await expect(page).toHaveURL(/\/northbank\/login$/);
    await logInByLinkHere(page, user);
    await expect(page).toHaveURL(/\/northbank\/calculator\/building-warranty$/);
    await expect(page.getByRole('textbox', { name: 'Sum insured (build cost)' })).toHaveValue(
      '£7,250,000',
    );
    await expect(page.getByText('Your details did not reach our team.')).toBeVisible();
  });

  // Found by the sixteenth session's portal probe: on an open client, whoever logged in on the tab under the
  // same e-mail after a session ended without Log out found that session's name, telephone, amounts and
  // reference: an open login proves no one's identity, and unlocks nothing of earlier sessions (decisions.md §2).
  test('an open login after a session ended finds nothing of that session in the tab', async ({
    page,
  }) => {
    const user = await loginOpen(page, 'demo', newUser('open-again'));
    await page.goto('/demo/calculator/building-warranty');
    await page.getByLabel('Name').fill('Alice Zebedee');
    await page.getByRole('textbox', { name: 'Sum insured (build cost)' }).fill('7,250,000');
    await page.getByRole('button', { name: 'Calculate' }).click();
    await expect(page.getByText(/Your reference: BW-/)).toBeVisible();
    await endSession(page);
    await page.goto('/demo/calculator/building-warranty');
    await expect(page).toHaveURL(/\/demo\/login$/);

    await logInHere(page, user);
    await expect(page).toHaveURL(/\/demo\/dashboard$/);
    await page.goto('/demo/calculator/building-warranty');
    await expect(page.getByLabel('Name')).toHaveValue(`${user.first_name} ${user.last_name}`);
    await expect(page.getByRole('textbox', { name: 'Sum insured (build cost)' })).toHaveValue(
      '£500,000',
    );
    await expect(page.getByText(/Your reference: BW-/)).toHaveCount(0);
    await expect(page.getByText('Alice Zebedee')).toHaveCount(0);
  });
});

test.describe('due diligence', () => {
  test('a session that ended offers Log in again, and the typed request is there afterwards', async ({
    page,
  }) => {
    const user = await loginMagicLink(page, 'northbank', newUser('dd-back'));
    await page.goto('/northbank/due-diligence');
    await page.getByLabel('Project name').fill('Quayside Phase 2');
    await page.getByLabel('Project address').fill('1 Harbour Road');
    await page.getByLabel('City and postcode').fill('Bristol BS1 4XX');
    await page.getByLabel('Project description').fill('Twelve flats\nover two shops');
    await page.getByRole('textbox', { name: 'Build cost' }).fill('3,250,000');
    await endSession(page, 'northbank');
    await page.getByRole('button', { name: 'Submit request' }).click();

    await expect(page.getByRole('alert')).toHaveText('You are not logged in. Please log in again.');
    const logInAgain = page.getByRole('link', { name: 'Log in again' });
    await expect(logInAgain).toBeVisible();
    await expectNoAxeViolations(page);
    await logInAgain.click();

    await expect(page).toHaveURL(/\/northbank\/login$/);
    await logInByLinkHere(page, user);
    await expect(page).toHaveURL(/\/northbank\/due-diligence$/);
    await expect(page.getByLabel('Project name')).toHaveValue('Quayside Phase 2');
    await expect(page.getByLabel('Project address')).toHaveValue('1 Harbour Road');
    await expect(page.getByLabel('City and postcode')).toHaveValue('Bristol BS1 4XX');
    await expect(page.getByLabel('Project description')).toHaveValue(
      'Twelve flats\nover two shops',
    );
    await expect(page.getByRole('textbox', { name: 'Build cost' })).toHaveValue('£3,250,000');
  });

  test('after Submit request, focus moves to the page that thanks the user rather than being dropped', async ({
    hub: page,
  }) => {
    await page.goto('/demo/due-diligence');
    await page.getByLabel('Project name').fill('Quayside Phase 3');
    await page.getByLabel('Project address').fill('2 Harbour Road');
    await page.getByLabel('City and postcode').fill('Bristol BS1 4XX');
    await page.getByLabel('Project description').fill('Six houses.');
    await page.getByRole('button', { name: 'Submit request' }).click();
    await expect(page).toHaveURL(/\/demo\/due-diligence\?success=1$/);
    await expect(
      page.getByText('Thank you we have received your submission and will be in touch shortly'),
    ).toBeVisible();
    await expect.poll(() => focused(page)).toBe('MAIN');
    await expectNoAxeViolations(page);
  });

  test('a draft left in the tab is never shown to the next user who logs in there', async ({
    page,
  }) => {
    await loginOpen(page, 'demo', newUser('dd-first'));
    await page.goto('/demo/due-diligence');
    await page.getByLabel('Project name').fill('Somebody else’s scheme');
    await page.getByRole('link', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/demo\/login$/);

    await loginOpen(page, 'demo', newUser('dd-second'));
    await page.goto('/demo/due-diligence');
    await expect(page.getByLabel('Project name')).toHaveValue('');
  });

  // Found by the fifteenth session's portal probe: on an open client anyone may log in under any e-mail, and the
  // drafts were kept by e-mail, so someone logging in on the tab under the previous user's address saw their
  // name, telephone, estimate and draft (decisions.md §2: an open session unlocks nothing of earlier sessions).
  test('Log out forgets the tab’s drafts, so the next login under the same e-mail finds none of them', async ({
    page,
  }) => {
    const first = { ...newUser('same-mail'), phone: '07700 900777' };
    await loginOpen(page, 'demo', first);
    await page.goto('/demo/calculator/building-warranty');
    await page.getByLabel('Name').fill('Zebedee Private');
    await page.getByRole('button', { name: 'Calculate' }).click();
    await expect(page.getByText('Estimated premium').first()).toBeVisible();
    await page.goto('/demo/insurance-framework');
    const contract = page.getByRole('textbox', { name: /^Contract value/ });
    await contract.fill('12,345,000');
    await contract.press('Enter');
    await expect(contract).toHaveValue('£12,345,000');
    await page.goto('/demo/due-diligence');
    await page.getByLabel('Project name').fill('Zebedee’s scheme');
    await page.getByRole('link', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/demo\/login$/);

    await loginOpen(page, 'demo', { ...first, first_name: 'Carol', phone: '07700 900888' });
    await page.goto('/demo/calculator/building-warranty');
    await expect(page.getByLabel('Name')).toHaveValue(`Carol ${first.last_name}`);
    await expect(page.getByLabel('Telephone')).toHaveValue('07700 900888');
    await expect(page.getByText('Estimated premium')).toHaveCount(0);
    await page.goto('/demo/insurance-framework');
    await expect(page.getByRole('textbox', { name: /^Contract value/ })).not.toHaveValue(
      '£12,345,000',
    );
    await page.goto('/demo/due-diligence');
    await expect(page.getByLabel('Project name')).toHaveValue('');
  });
});

test.describe('content pages', () => {
  test('Retry that brings the content keeps keyboard focus in the page, not on the document', async ({
    hub: page,
  }) => {
    await page.route('**/api/demo/content**', (route) => route.abort('internetdisconnected'));
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Information Hub' })
      .click();
    const retry = page.getByRole('alert').getByRole('button', { name: 'Retry' });
    await expect(retry).toBeVisible();
    await page.unroute('**/api/demo/content**');
    await retry.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Contractors all risks' })).toBeVisible();
    await expect.poll(() => focused(page)).toBe('MAIN');
    // The next Tab reaches the content that replaced the Retry button.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('main').locator(':focus')).toHaveCount(1);
  });

  // Found by the twenty-sixth session: the dashboard's articles and the information hub's topics are one call (one
  // SWR key), and SWR keeps its last error while it asks again: a failure met on the dashboard showed on the
  // information hub, with Retry, while the hub's own request was on its way, then gave way to the topics. And opened
  // straight from the dashboard still showing that failure, SWR asked nothing until Retry. The answer here is later
  // than the hub's loader waits (4 s), so the page is shown while its request is on its way.
  for (const [way, viaGuide] of [
    ['by another page', true],
    ['straight', false],
  ] as const) {
    test(`a failure met on the dashboard is not shown on the information hub opened ${way}, which asks again`, async ({
      hub: page,
    }) => {
      test.slow();
      const nav = page.getByRole('navigation', { name: 'Main' });
      let failing = true;
      let asked = 0;
      await page.route('**/api/demo/content', async (route) => {
        if (failing) {
          await route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ message: 'Internal server error' }),
          });
          return;
        }
        asked += 1;
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        await route.continue();
      });
      await nav.getByRole('link', { name: 'Development Insurance Guide' }).click();
      await expect(page).toHaveURL(/\/demo\/insurance-guide$/);
      await nav.getByRole('link', { name: 'Dashboard' }).click();
      await expect(page.getByRole('alert').getByRole('button', { name: 'Retry' })).toBeVisible();
      if (viaGuide) {
        await nav.getByRole('link', { name: 'Development Insurance Guide' }).click();
        await expect(page).toHaveURL(/\/demo\/insurance-guide$/);
      }

      failing = false;
      const alertsSeen = await recordAddedAlerts(page);
      await nav.getByRole('link', { name: 'Information Hub' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Information Hub' })).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: 'Loading topics…' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Contractors all risks' })).toBeVisible({
        timeout: 10_000,
      });
      expect(await alertsSeen()).toEqual([]);
      // Asked again without Retry (the dashboard, while still shown, may also have tried again by itself: SWR
      // retries a 5xx after a few seconds).
      expect(asked).toBeGreaterThanOrEqual(1);
    });
  }

  // Found by the seventeenth session's portal probe: a page whose code failed to load once showed the browser's
  // "Failed to fetch dynamically imported module" and stayed so, however the user navigated, until a reload.
  test('a page whose code could not be fetched says so and loads again once the connection is back', async ({
    hub: page,
  }) => {
    await page.route('**/assets/info-*.js', (route) => route.abort('internetdisconnected'));
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Information Hub' })
      .click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'This page could not be loaded' }),
    ).toBeVisible();
    await expect(page.getByText(/Failed to fetch/)).toHaveCount(0);
    await expectNoAxeViolations(page);
    await page.unroute('**/assets/info-*.js');
    await page.getByRole('button', { name: 'Load the page again' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Information Hub' })).toBeVisible();
    await expect(page).toHaveURL(/\/demo\/info$/);
  });

  // Found by the eighteenth session's portal probe: when the app's own code could not be fetched, the page stayed
  // on "Loading your client hub…" for ever, with no word and no way on.
  test('a page whose app code could not be fetched at all says so and loads again once the connection is back', async ({
    hub: page,
  }) => {
    const appCode = /\/assets\/(?!index-)[^/]+\.js$/;
    await page.route(appCode, (route) => route.abort('internetdisconnected'));
    await page.goto('/demo/dashboard');
    const heading = page.getByRole('heading', { level: 1, name: 'The portal could not be loaded' });
    await expect(heading).toBeVisible();
    await expect(heading).toBeFocused();
    await expect(page).toHaveTitle('The portal could not be loaded – Client Hub');
    await expect(page.getByText('Loading your client hub…')).toHaveCount(0);
    await expectNoAxeViolations(page);
    await page.unroute(appCode);
    await page.getByRole('button', { name: 'Load the page again' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  });

  test('a page whose data is refused because the session ended offers Log in again, not a Retry that cannot work', async ({
    page,
  }) => {
    const user = await loginMagicLink(page, 'northbank', newUser('content-back'));
    await endSession(page, 'northbank');
    // The hub is still on screen; the next page's call is refused.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Information Hub' })
      .click();
    // The hub checks the session and says, once, that it has ended (twenty-sixth session).
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Your session has ended.');
    await expect(alert).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    const logInAgain = alert.getByRole('link', { name: 'Log in again' });
    await expect(logInAgain).toBeVisible();
    await expectNoAxeViolations(page);

    await logInAgain.click();
    await expect(page).toHaveURL(/\/northbank\/login$/);
    await logInByLinkHere(page, user);
    await expect(page).toHaveURL(/\/northbank\/info$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Information Hub' })).toBeVisible();
  });
});

// Found by the twenty-sixth session: a session ended between two pages left the dashboard with two identical
// "You are not logged in" notices (the video's and the articles'), and the hub went on as if logged in.
test('a session ended between pages is said once, by the hub, on a page with two calls', async ({
  page,
}) => {
  await loginOpen(page, 'demo', newUser('ended-dashboard'));
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Information Hub' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Information Hub' })).toBeVisible();
  await endSession(page);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Dashboard' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Your session has ended.');
  await expect(alert).toHaveCount(1);
  await expect(page.getByText('You are not logged in. Please log in again.')).toHaveCount(0);
  await expect(page.getByRole('status')).toHaveCount(0);
  await expectNoAxeViolations(page);
});

// Found by the seventeenth session's portal probe: a tab still showing the user before a login in another tab
// submitted under the new session with the earlier user's details, and kept "Welcome, …" after a logout elsewhere.
// Found by the eighteenth session's portal probe: under the same e-mail with another name, the tab was taken for
// the same user's, and it kept the earlier user's work (only the tab where the logout happened forgot it).
test('the other tabs of a client follow a logout and a login made in one of them', async ({
  page,
}) => {
  const alice = await loginOpen(page, 'demo', newUser('tab-a'));
  await page.goto('/demo/calculator/building-warranty');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByLabel('Telephone').fill('01632 960001');
  await expect.poll(() => page.evaluate(() => sessionStorage.length)).toBeGreaterThan(0);

  const other = await page.context().newPage();
  await other.goto('/demo/dashboard');
  await expect(other.getByText(`Welcome, ${alice.first_name}`)).toBeVisible();
  await other.getByRole('link', { name: 'Log out' }).click();
  await expect(other).toHaveURL(/\/demo\/login$/);
  // The first tab, never focused meanwhile, is on the login page too, and has forgotten Alice's work.
  await expect(page).toHaveURL(/\/demo\/login$/);
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

  // Someone else under the same e-mail (an open client proves no one's identity).
  const mallory = await loginOpen(other, 'demo', {
    ...alice,
    first_name: 'Mallory',
    phone: '01632 960999',
  });
  await expect(page).toHaveURL(/\/demo\/dashboard$/);
  await expect(page.getByText(`Welcome, ${mallory.first_name}`)).toBeVisible();
  await expect(page.getByText(`Welcome, ${alice.first_name}`)).toHaveCount(0);
  await page.goto('/demo/calculator/building-warranty');
  await expect(page.getByLabel('Telephone')).not.toHaveValue('01632 960001');
  await other.close();
});

test('the 404 page is not a dead end, of a known client or an unknown one', async ({ page }) => {
  // Not logged in: the way on is the client's login page.
  await page.goto('/demo/no-such-page');
  await expect(page.getByRole('heading', { level: 1, name: '404 Not Found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to the login page' }).click();
  await expect(page).toHaveURL(/\/demo\/login$/);

  await loginOpen(page, 'demo', newUser('not-found'));
  await page.goto('/demo/calculator/no-such-calculator');
  await expect(page.getByRole('heading', { level: 1, name: '404 Not Found' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: 'Go to the dashboard' }).click();
  await expect(page).toHaveURL(/\/demo\/dashboard$/);

  // An unknown client has no page to offer: no link that would lead to another 404. Its way on is the team, by
  // e-mail (found by the thirty-first session's portal probe: it had nothing to Tab to).
  await page.goto('/no-such-client/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: '404 Not Found' })).toBeVisible();
  const contact = page.getByRole('link', { name: 'contact us' });
  await expect(page.getByRole('link')).toHaveCount(1);
  await expect(contact).toHaveAttribute('href', /^mailto:/);
  await page.keyboard.press('Tab');
  await expect(contact).toBeFocused();
  await expectNoAxeViolations(page);
});

// A known fault: the error page ("Oops!") reached by a navigation left keyboard focus on the document, where every
// other page takes it to itself; the next Tab started again at the top of the page.
test('the error page reached by a navigation takes keyboard focus to its heading and passes axe', async ({
  hub: page,
}) => {
  await page.goto('/demo/no-such-page');
  const link = page.getByRole('link', { name: 'Go to the dashboard' });
  await expect(link).toBeVisible();
  // The connection drops: the dashboard's route cannot read the client.
  await page.route('**/api/demo', (route) => route.abort('internetdisconnected'));
  await link.focus();
  await page.keyboard.press('Enter');

  const heading = page.getByRole('heading', { level: 1, name: 'Oops!' });
  await expect(heading).toBeVisible();
  await expect(page.getByText('The connection to our server failed.')).toBeVisible();
  await expect(heading).toBeFocused();
  await expect(page).toHaveTitle('Oops! – Harbourside Developments');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Load the page again' })).toBeFocused();
  await expectNoAxeViolations(page);

  await page.unroute('**/api/demo');
  await page.getByRole('button', { name: 'Load the page again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Oops!' })).toHaveCount(0);
  await expect(page).toHaveURL(/\/demo\/dashboard$/);
});

test('the 404 page reached by Back from a hub page takes keyboard focus to its heading', async ({
  hub: page,
}) => {
  await page.goto('/demo/no-such-page');
  await page.getByRole('link', { name: 'Go to the dashboard' }).click();
  await expect(page).toHaveURL(/\/demo\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.goBack();
  const heading = page.getByRole('heading', { level: 1, name: '404 Not Found' });
  await expect(heading).toBeVisible();
  await expect(heading).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Go to the dashboard' })).toBeFocused();
});

// A known fault: the hub moved keyboard focus to its main area on every new page but its first render, and going
// from the 404 page (outside the hub) to a hub page is one: focus stayed on the document, where the next Tab
// started again from the top. A page load keeps the browser's default.
test('going from the 404 page into the hub moves keyboard focus to the main area, a page load does not', async ({
  hub: page,
}) => {
  /** The id of the focused element, or 'body'. */
  const focusedId = () =>
    page.evaluate(() => {
      const element = document.activeElement;
      return element === null || element === document.body ? 'body' : element.id;
    });

  await page.goto('/demo/no-such-page');
  const link = page.getByRole('link', { name: 'Go to the dashboard' });
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/demo\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect.poll(focusedId).toBe('main-content');

  // Back to the 404 page, and Forward into the hub again: a navigation too.
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: '404 Not Found' })).toBeFocused();
  await page.goForward();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect.poll(focusedId).toBe('main-content');

  // A reload, and a typed address (redirected by the route, as /demo is to the dashboard): focus is not moved.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Information Hub' }).first()).toBeVisible();
  expect(await focusedId()).toBe('body');
  await page.goto('/demo');
  await expect(page).toHaveURL(/\/demo\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  expect(await focusedId()).toBe('body');
});

test('the way back after logging in stays on the same client and site', async ({ page }) => {
  await loginOpen(page, 'demo', newUser('back-hostile'));
  // A page of the same origin (or a tampering extension) plants return paths the login must not follow.
  for (const planted of [
    'https://evil.example/demo/dashboard',
    '//evil.example/demo/dashboard',
    '/\\evil.example/demo/dashboard',
    '/northbank/dashboard',
    '/demo/login',
    'javascript:alert(1)',
    '{"path":"/demo/info"',
  ]) {
    await endSession(page);
    await page.goto('/demo/login');
    await page.evaluate((value) => sessionStorage.setItem('portal:return-to', value), planted);
    // A new user each time: one e-mail may try only five logins in 15 minutes.
    await logInHere(page, newUser('back-hostile'));
    await expect(page, planted).toHaveURL(/\/demo\/dashboard$/);
  }
});
