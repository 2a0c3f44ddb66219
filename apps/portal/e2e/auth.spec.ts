import {
  expect,
  expectNoAxeViolations,
  loginMagicLink,
  loginOpen,
  newUser,
  test,
  waitForLoginLink,
} from './fixtures';

test.describe('login', () => {
  test('an open client logs in straight to the dashboard', async ({ page }) => {
    await page.goto('/demo/login');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Harbourside Developments' }),
    ).toBeVisible();
    for (const label of ['First name', 'Last name', 'Email', 'Phone']) {
      await expect(page.getByLabel(label)).toHaveAttribute('required', '');
    }
    await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
    await expect(page.getByLabel('Phone')).toHaveAttribute('type', 'tel');

    const user = await loginOpen(page, 'demo');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('banner')).toContainText(`${user.first_name} ${user.last_name}`);
    await expect(page.getByRole('banner')).toContainText(user.email);
  });

  test('the form is not sent while a field is empty or the e-mail is malformed, and says why at the field', async ({
    page,
  }) => {
    let posted = false;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/demo/login')) posted = true;
    });
    await page.goto('/demo/login');
    await page.getByLabel('First name').fill('Alex');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByLabel('Last name')).toBeFocused();
    await expect(page.getByLabel('Last name')).toHaveAccessibleDescription('Enter your last name');
    await page.getByLabel('Last name').fill('Tester');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Phone').fill('07700 900123');
    await page.getByRole('button', { name: 'Continue' }).click();

    await expect(page.getByLabel('Email')).toBeFocused();
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Email')).toHaveAccessibleDescription(
      'Enter an email address such as name@example.com',
    );
    await expectNoAxeViolations(page);
    await expect(page).toHaveURL(/\/demo\/login$/);
    expect(posted).toBe(false);
  });

  test('a magic-link client gets an e-mail; Send again returns to the form; the link logs in', async ({
    page,
  }) => {
    await page.goto('/northbank/login');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Northbank Capital Partners' }),
    ).toBeVisible();

    const user = newUser('again');
    await page.getByLabel('First name').fill(user.first_name);
    await page.getByLabel('Last name').fill(user.last_name);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Phone').fill(user.phone);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('An email has been sent with a link to log in')).toBeVisible();
    await page.getByRole('button', { name: 'Send again' }).click();
    await expect(page.getByLabel('Email')).toHaveValue(user.email);
    await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();

    await loginMagicLink(page, 'northbank');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  });

  // A known fault: a used login link opened again in a browser already logged in to the client said "invalid or
  // expired" with "Back to the login page", which led to the dashboard (the login page sends a logged-in user
  // there). It is still refused, but says the user is already logged in and offers the dashboard.
  test('a used login link opened again while logged in is refused, says so and leads to the dashboard', async ({
    page,
  }) => {
    const user = newUser('used-link');
    const since = Date.now();
    await page.goto('/northbank/login');
    await page.getByLabel('First name').fill(user.first_name);
    await page.getByLabel('Last name').fill(user.last_name);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Phone').fill(user.phone);
    await page.getByRole('button', { name: 'Continue' }).click();
    const link = await waitForLoginLink(user.email, since);
    await page.goto(link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText(`Welcome, ${user.first_name}`)).toBeVisible();
    const cookies = await page.context().cookies();

    await page.goto(link);
    const refused = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().endsWith('/link'),
    );
    await page.getByRole('button', { name: 'Continue' }).click();
    expect((await refused).status()).toBe(400);
    await expect(
      page.getByRole('heading', { level: 1, name: 'This login link is invalid or has expired' }),
    ).toBeVisible();
    await expect(
      page.getByText(/You are already logged in to Northbank Capital Partners/),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to the login page' })).toHaveCount(0);
    await expectNoAxeViolations(page);
    // Nothing about the session changed.
    expect(await page.context().cookies()).toEqual(cookies);

    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await expect(page).toHaveURL(/\/northbank\/dashboard$/);
    await expect(page.getByText(`Welcome, ${user.first_name}`)).toBeVisible();
  });

  // Found by the twenty-ninth session's API probe: anyone may ask for a link to someone else's address with names
  // and a phone of their own, and the owner opening it recorded them on their account. The Continue page names the
  // details a link was asked with and lets the account keep the ones it holds.
  test("a login link asked for with someone else's details lets the account keep its own", async ({
    page,
  }) => {
    const owner = await loginMagicLink(page, 'northbank', newUser('owner'));
    await page.goto('/api/northbank/logout');
    await expect(page).toHaveURL(/\/northbank\/login$/);

    const since = Date.now();
    await page.getByLabel('First name').fill('Mallory');
    await page.getByLabel('Last name').fill('Evil');
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Phone').fill('020 7946 0999');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('An email has been sent with a link to log in')).toBeVisible();

    await page.goto(await waitForLoginLink(owner.email, since));
    await expect(
      page.getByText('This link was asked for as Mallory Evil, phone 020 7946 0999.', {
        exact: false,
      }),
    ).toBeVisible();
    await expect(
      page.getByText(`We hold ${owner.first_name} ${owner.last_name}, phone ${owner.phone}`),
    ).toBeVisible();
    await expectNoAxeViolations(page);
    const keep = page.getByRole('button', { name: 'Continue with the details we hold' });
    await expect(
      page.getByRole('button', { name: 'Continue and update my details' }),
    ).toBeVisible();
    // The first button is the first stop for the keyboard.
    await page.keyboard.press('Tab');
    await expect(keep).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/northbank\/dashboard$/);
    await expect(page.getByText(`Welcome, ${owner.first_name}`)).toBeVisible();
    await expect(page.getByRole('banner')).toContainText(`${owner.first_name} ${owner.last_name}`);
  });

  test('a protected page without a session goes to the login page', async ({ page }) => {
    await page.goto('/demo/calculator/building-warranty');
    await expect(page).toHaveURL(/\/demo\/login$/);
    await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  });

  test('a session of one client does not open another client', async ({ hub: page }) => {
    await page.goto('/northbank/dashboard');
    await expect(page).toHaveURL(/\/northbank\/login$/);
  });

  test('Log out ends the session and a protected page then asks to log in again', async ({
    hub: page,
  }) => {
    await page.getByRole('link', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/demo\/login$/);
    await page.goto('/demo/dashboard');
    await expect(page).toHaveURL(/\/demo\/login$/);
  });
});

test.describe('not found', () => {
  test('an unknown client shows 404 Not Found', async ({ page }) => {
    await page.goto('/no-such-client/login');
    await expect(page.getByRole('heading', { level: 1, name: '404 Not Found' })).toBeVisible();
  });

  test('an unmatched URL shows 404 Not Found', async ({ hub: page }) => {
    await page.goto('/demo/no/such/page');
    await expect(page.getByRole('heading', { level: 1, name: '404 Not Found' })).toBeVisible();
  });
});
