import { afterEach, describe, expect, it, vi } from 'vitest';

import { createDraftStore } from '@/features/calculators/stores/create-draft-store';

import { tabStorage } from './tab-storage';

// jsdom's sessionStorage refuses more than 5,000,000 characters, as a browser's does.
afterEach(() => {
  sessionStorage.clear();
  vi.restoreAllMocks();
});

describe('the tab storage of the drafts', () => {
  it('should write a draft as its JSON, and read it back', () => {
    const storage = tabStorage<{ name: string }>();
    storage.setItem('k', { state: { name: 'Ada' }, version: 2 });
    expect(sessionStorage.getItem('k')).toBe('{"state":{"name":"Ada"},"version":2}');
    expect(storage.getItem('k')).toEqual({ state: { name: 'Ada' }, version: 2 });
    expect(storage.getItem('none')).toBeNull();
  });

  it('should leave the longest text out of a draft over the quota, and the draft on screen as it is', () => {
    const storage = tabStorage<unknown>();
    const shared = { text: 'a'.repeat(3_000_000) };
    const draft = { state: { first: shared, second: shared, list: ['b'] }, version: 0 };
    storage.setItem('k', draft);
    // The same text twice is two texts in the JSON: one left out is enough.
    expect(JSON.parse(sessionStorage.getItem('k') ?? '')).toEqual({
      state: { first: { text: '' }, second: shared, list: ['b'] },
      version: 0,
    });
    expect(shared.text).toHaveLength(3_000_000);
    expect(draft.state.first).toBe(shared);
  });

  // A known fault of the thirty-first session's fix: while a draft was over the quota, each change (each keystroke)
  // parsed the whole draft back from its JSON, megabytes each time, to leave its longest text out.
  it('should not parse a draft over the quota back from its JSON, keystroke after keystroke', () => {
    const store = createDraftStore(
      'calculator:test',
      { units: 1 },
      {
        quote: ({ units }) => ({ total: units * 10 }),
        submission: {
          body: (inputs, contact) => ({ ...inputs, ...contact }),
          contactOf: ({ name, telephone, email }) => ({ name, telephone, email }),
          referencePrefix: 'BW',
        },
      },
    );
    const ada = { name: 'Ada Lovelace', telephone: '020 7946 0000', email: 'ada@example.com' };
    store.getState().claim('demo/ada@example.com');
    const pasted = 'n'.repeat(6_000_000);
    const parse = vi.spyOn(JSON, 'parse');
    store.getState().setContact({ ...ada, name: pasted });
    for (let units = 2; units <= 6; units += 1) store.getState().setInput('units', units);

    const parsedLarge = parse.mock.calls.filter(([text]) => text.length > 1_000_000);
    expect(parsedLarge).toHaveLength(0);
    parse.mockRestore();
    // What is kept is what was kept before: the draft without the text too large to keep.
    expect(JSON.parse(sessionStorage.getItem('calculator:test') ?? '')).toEqual({
      state: {
        owner: 'demo/ada@example.com',
        inputs: { units: 6 },
        contact: { ...ada, name: '' },
        estimate: null,
        submission: { status: 'idle' },
      },
      version: 1,
    });
    expect(store.getState().contact?.name).toBe(pasted);
  });
});
