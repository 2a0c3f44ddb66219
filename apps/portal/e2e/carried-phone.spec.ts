import type { Page } from '@playwright/test';

import { expect, loginOpen, newUser, test } from './fixtures';
import { openDatabase } from './hostile-fixtures/browser';

/**
 * A phone number stored before the phone rule (the login took any text then), carried by the user's record into
 * the calculators: flagged as each calculator is shown, and once corrected and sent from one calculator, what the
 * other two prefill (`stores/contact-prefill-store.ts`). No supported path stores such a number now, so the test
 * writes it into the e2e server's database, as an older version's data would be.
 */

const CALCULATORS = [
  {
    path: '/demo/calculator/building-warranty',
    label: 'Telephone',
    reference: /^Your reference: BW-/,
  },
  {
    path: '/demo/calculator/contractors-all-risks',
    label: 'Telephone',
    reference: /^Your reference: CAR-/,
  },
  {
    path: '/demo/calculator/btr-warranty',
    label: 'Contact number',
    reference: /^Your reference: BTR-/,
  },
] as const;

/** Gives the (open-login) users of `email` on the demo client the phone `phone`, straight in the database. */
function storePhone(email: string, phone: string) {
  const db = openDatabase();
  try {
    db.prepare(
      `UPDATE users SET phone = ? WHERE email = ? AND client_id = (SELECT id FROM clients WHERE prefix = 'demo')`,
    ).run(phone, email);
  } finally {
    db.close();
  }
}

function estimate(page: Page) {
  return page.getByRole('region', { name: 'Your estimate' });
}

/** The field's message, as its `aria-describedby` names it. */
async function describedBy(page: Page, label: string): Promise<string> {
  return page.getByLabel(label, { exact: true }).evaluate((input) =>
    (input.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

test('a stored phone with an extension is flagged in every calculator; the one sent from a calculator is prefilled by the others', async ({
  page,
}) => {
  const user = await loginOpen(page, 'demo', newUser('carried'));
  storePhone(user.email, '020 7946 0000 ext. 12');

  // Each calculator shows the stored number, marked invalid with its message as the form is shown, focus left alone.
  for (const { path, label } of CALCULATORS) {
    await page.goto(path);
    const field = page.getByLabel(label, { exact: true });
    await expect(field).toHaveValue('020 7946 0000 ext. 12');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(await describedBy(page, label)).toContain(
      'Leave out the extension: enter the phone number on its own',
    );
    await expect(field).not.toBeFocused();
  }

  // Corrected (in fullwidth digits, as a Japanese keyboard types them) and sent from the BTR calculator.
  const btr = CALCULATORS[2];
  await page.goto(btr.path);
  const posted = page.waitForRequest(
    (request) => request.url().endsWith('/api/demo/btr') && request.method() === 'POST',
  );
  await page.getByLabel(btr.label, { exact: true }).fill('０２０ ７９４６ ０００１');
  await page.getByRole('button', { name: 'Calculate' }).click();
  expect((await posted).postDataJSON()).toMatchObject({
    contact_number: '020 7946 0001',
  });
  await expect(estimate(page).getByText(btr.reference)).toBeVisible();

  // The other two prefill the number sent, not the stored one, and flag nothing; so does a reload of the tab.
  for (const reload of [false, true]) {
    for (const { path, label } of CALCULATORS.slice(0, 2)) {
      await page.goto(path);
      if (reload) await page.reload();
      const field = page.getByLabel(label, { exact: true });
      await expect(field).toHaveValue('020 7946 0001');
      await expect(field).not.toHaveAttribute('aria-invalid', 'true');
    }
  }
  // Sent from there too, with the number carried over.
  const car = CALCULATORS[1];
  await page.goto(car.path);
  const carPost = page.waitForRequest(
    (request) => request.url().endsWith('/api/demo/car') && request.method() === 'POST',
  );
  await page.getByRole('button', { name: 'Calculate' }).click();
  expect((await carPost).postDataJSON()).toMatchObject({ telephone: '020 7946 0001' });
  await expect(estimate(page).getByText(car.reference)).toBeVisible();

  // Log out: the number sent is forgotten with the drafts; the next login gives the record a valid phone again.
  await page.getByRole('link', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/demo\/login$/);
  await loginOpen(page, 'demo', user);
  await page.goto(CALCULATORS[0].path);
  await expect(page.getByLabel('Telephone', { exact: true })).toHaveValue(user.phone);
});

test('a stored phone that is no number is flagged with the digits message, and prefilled once more until sent', async ({
  page,
}) => {
  const user = await loginOpen(page, 'demo', newUser('carried-text'));
  storePhone(user.email, 'ask for Sam');

  await page.goto(CALCULATORS[0].path);
  const field = page.getByLabel('Telephone', { exact: true });
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  expect(await describedBy(page, 'Telephone')).toContain('Enter your phone number in digits');

  // Calculate with it: nothing is sent, focus goes to the field.
  let posts = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/demo/warranty')) posts += 1;
  });
  await page.getByRole('button', { name: 'Calculate' }).click();
  await expect(field).toBeFocused();
  expect(posts).toBe(0);

  // Corrected but not sent: another calculator still prefills (and flags) the stored number.
  await field.fill('020 7946 0002');
  await page.goto(CALCULATORS[1].path);
  const other = page.getByLabel('Telephone', { exact: true });
  await expect(other).toHaveValue('ask for Sam');
  await expect(other).toHaveAttribute('aria-invalid', 'true');
});

// Found by the twenty-seventh session's probe: an estimate sent with the login's phone, visited again after another
// calculator sent a new number, showed that number and said "You have changed your contact details since they were
// sent", to a user who had changed nothing there.
test('a calculator whose estimate the team has keeps the number it sent; one yet to send prefills the new one', async ({
  hub: page,
}) => {
  const loginPhone = await page.evaluate(async () => {
    const answer = await fetch('/api/demo');
    return ((await answer.json()) as { phone: string }).phone;
  });
  await page.goto(CALCULATORS[0].path);
  await page.getByRole('button', { name: 'Calculate' }).click();
  await expect(estimate(page).getByText(CALCULATORS[0].reference)).toBeVisible();

  await page.goto(CALCULATORS[1].path);
  await page.getByLabel('Telephone', { exact: true }).fill('020 7946 0003');
  await page.getByRole('button', { name: 'Calculate' }).click();
  await expect(estimate(page).getByText(CALCULATORS[1].reference)).toBeVisible();

  await page.goto(CALCULATORS[0].path);
  await expect(estimate(page).getByText(CALCULATORS[0].reference)).toBeVisible();
  await expect(page.getByLabel('Telephone', { exact: true })).toHaveValue(loginPhone);
  await expect(estimate(page).getByText(/changed your contact details/)).toHaveCount(0);

  await page.goto(CALCULATORS[2].path);
  await expect(page.getByLabel('Contact number', { exact: true })).toHaveValue('020 7946 0003');
});
