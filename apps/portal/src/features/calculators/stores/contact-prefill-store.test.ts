import { afterEach, describe, expect, it } from 'vitest';

import { rememberedTelephone, useContactPrefillStore } from './contact-prefill-store';

afterEach(() => {
  useContactPrefillStore.getState().reset();
  sessionStorage.clear();
});

const owner = 'demo/ada@example.com';

describe('useContactPrefillStore', () => {
  it('keeps the telephone last sent, its digits in ASCII, for its user only', () => {
    useContactPrefillStore
      .getState()
      .remember(owner, ' \uFF10\uFF12\uFF10 \u0667\u0669\u0664\u0666 0000 ');
    const state = useContactPrefillStore.getState();
    expect(rememberedTelephone(state, owner)).toBe('020 7946 0000');
    expect(rememberedTelephone(state, 'demo/someone@example.com')).toBeNull();
    expect(rememberedTelephone(state, 'northbank/ada@example.com')).toBeNull();
  });

  it('reads back from the tab only an owner and a phone number the API takes', async () => {
    for (const [saved, expected] of [
      [{ owner, telephone: '020 7946 0000' }, '020 7946 0000'],
      [{ owner, telephone: 'call me' }, null],
      [{ owner, telephone: '0'.repeat(41) }, null],
      // A phone number's invisible format characters are not sent (since the twenty-eighth session), nor shown.
      [{ owner, telephone: '020\u202E7946' }, '0207946'],
      [{ owner, telephone: '020\u20287946' }, null],
      [{ owner, telephone: 79_460_000 }, null],
      [{ owner: 42, telephone: '020 7946 0000' }, null],
      ['nonsense', null],
    ] as const) {
      sessionStorage.setItem('calculator:contact', JSON.stringify({ state: saved, version: 1 }));
      await useContactPrefillStore.persist.rehydrate();
      expect(
        rememberedTelephone(useContactPrefillStore.getState(), owner),
        JSON.stringify(saved),
      ).toBe(expected);
    }
  });
});
