import { afterEach, describe, expect, it, vi } from 'vitest';

import { EMPTY_DRAFT, useDueDiligenceDraft } from './draft-store';

afterEach(() => {
  sessionStorage.clear();
});

async function stored(state: unknown) {
  sessionStorage.setItem('due-diligence:draft', JSON.stringify({ state, version: 1 }));
  await useDueDiligenceDraft.persist.rehydrate();
  return useDueDiligenceDraft.getState();
}

describe('the due-diligence draft read back from the tab', () => {
  // Found by the sixteenth session's portal probe: an amount of £500,000.50 set in the tab's storage crashed the
  // page to "Oops!" until Log out.
  it('should put back the default of an amount that is not whole pounds within its range', async () => {
    for (const buildCost of [500_000.5, 1e300, -1, 0, 50_000_001, Number.MAX_SAFE_INTEGER + 2]) {
      const { draft } = await stored({
        owner: 'demo/ada@example.com',
        draft: { projectName: 'Kept', buildCost, gdv: 2_000_000 },
      });
      expect(draft, String(buildCost)).toEqual({
        ...EMPTY_DRAFT,
        projectName: 'Kept',
        gdv: 2_000_000,
      });
    }
  });

  it('should keep amounts and text as typed', async () => {
    const draft = {
      ...EMPTY_DRAFT,
      projectName: 'Riverside',
      projectDescription: 'Twelve flats',
      buildCost: 512_345,
      loanAmount: 50_000_000,
    };
    expect((await stored({ owner: 'demo/ada@example.com', draft })).draft).toEqual(draft);
  });
});

describe("the name of the draft's file read back from the tab", () => {
  // Found by the eighteenth session's portal probe: the form came back from logging in again without its file
  // and said nothing; the draft now keeps the file's name (only its name) so that the form can ask for it.
  it('should keep the name of the file chosen with the draft', async () => {
    const { fileName } = await stored({ owner: 'demo/ada@example.com', fileName: 'report.pdf' });
    expect(fileName).toBe('report.pdf');
  });

  // Found by the nineteenth session's portal probe: read back as the page loads (when the store is made), the
  // name was always dropped, and the form said nothing of the file after a reload or logging in again.
  it('should keep it when the page loads with the draft in the tab', async () => {
    sessionStorage.setItem(
      'due-diligence:draft',
      JSON.stringify({
        state: {
          owner: 'demo/ada@example.com',
          draft: { projectName: 'Kept' },
          fileName: 'report.pdf',
        },
        version: 1,
      }),
    );
    vi.resetModules();
    const { useDueDiligenceDraft: loaded } = await import('./draft-store');
    expect(loaded.getState()).toMatchObject({
      owner: 'demo/ada@example.com',
      draft: { projectName: 'Kept' },
      fileName: 'report.pdf',
    });
  });

  it('should forget anything that is not a file name', async () => {
    for (const fileName of [42, '', '   ', 'x'.repeat(256), { name: 'report.pdf' }, null]) {
      const state = await stored({ owner: 'demo/ada@example.com', fileName });
      expect(state.fileName, JSON.stringify(fileName)).toBeNull();
    }
  });

  it('should forget it with the draft, and for another user', () => {
    const store = useDueDiligenceDraft.getState();
    store.claim('demo/ada@example.com');
    store.chooseFile('report.pdf');
    useDueDiligenceDraft.getState().clear();
    expect(useDueDiligenceDraft.getState().fileName).toBeNull();

    useDueDiligenceDraft.getState().chooseFile('report.pdf');
    useDueDiligenceDraft.getState().claim('demo/bob@example.com');
    expect(useDueDiligenceDraft.getState().fileName).toBeNull();
  });
});

describe('the due-diligence draft too large for the tab', () => {
  // Found by the thirty-first session's portal probe: 6 MB pasted in the description went past sessionStorage's
  // quota, and every change after it threw QuotaExceededError out of the store, uncaught, in the page.
  it('should go on with the draft on screen, and keep the last one that fitted', async () => {
    await stored({ owner: 'demo/ada@example.com', draft: { projectName: 'Kept' } });
    const setItem = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    try {
      expect(() =>
        useDueDiligenceDraft.getState().update({ projectDescription: 'x'.repeat(100) }),
      ).not.toThrow();
      expect(useDueDiligenceDraft.getState().draft.projectDescription).toBe('x'.repeat(100));
    } finally {
      setItem.mockRestore();
    }
    expect(sessionStorage.getItem('due-diligence:draft')).toContain('"projectName":"Kept"');
  });

  // Found by the thirty-first session's portal probe: once one field was too large to keep, every later draft held
  // it too, so nothing was saved any more: the fields typed after it were lost on a reload. (jsdom's sessionStorage
  // has a browser's quota of 5,000,000 characters, and throws QuotaExceededError past it, as Chromium does.)
  it('should go on saving the other fields, leaving out the one too large to keep', async () => {
    const owner = 'demo/ada@example.com';
    useDueDiligenceDraft.getState().claim(owner);
    useDueDiligenceDraft.getState().update({ projectName: 'Riverside' });
    const pasted = 'x'.repeat(6_000_000);
    useDueDiligenceDraft.getState().update({ projectDescription: pasted });
    useDueDiligenceDraft.getState().update({ projectAddress: '1 Quay Street' });
    useDueDiligenceDraft.getState().update({ cityAndPostcode: 'Bristol BS1 4QA' });
    // The screen keeps what was typed.
    expect(useDueDiligenceDraft.getState().draft.projectDescription).toBe(pasted);

    // A reload reads back every field that fitted.
    await useDueDiligenceDraft.persist.rehydrate();
    expect(useDueDiligenceDraft.getState().owner).toBe(owner);
    expect(useDueDiligenceDraft.getState().draft).toEqual({
      ...EMPTY_DRAFT,
      projectName: 'Riverside',
      projectAddress: '1 Quay Street',
      cityAndPostcode: 'Bristol BS1 4QA',
      projectDescription: '',
    });
  });
});
