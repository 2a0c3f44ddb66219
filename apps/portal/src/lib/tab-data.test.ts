import { beforeEach, describe, expect, it } from 'vitest';

import { forgetTabData } from './tab-data';
import { forgetOthersTabData } from './tab-storage';

const saved = (owner: unknown) =>
  JSON.stringify({ state: { owner, inputs: { units: 3 } }, version: 0 });

describe('the data this tab keeps', () => {
  beforeEach(() => sessionStorage.clear());

  it('should forget everything at Log out', () => {
    sessionStorage.setItem('calculator:warranty', saved('demo/ada@example.com'));
    sessionStorage.setItem('portal:return-to', '{"path":"/demo/info","email":"ada@example.com"}');
    forgetTabData();
    expect(sessionStorage.length).toBe(0);
  });

  it("should forget another user's and another client's drafts as the hub opens, and keep the user's own", () => {
    sessionStorage.setItem('calculator:warranty', saved('demo/ada@example.com'));
    sessionStorage.setItem('calculator:btr', saved('demo/bob@example.com'));
    sessionStorage.setItem('framework', saved('northbank/ada@example.com'));
    sessionStorage.setItem('due-diligence:draft', saved('demo/bob@example.com'));
    // Not a draft of anyone's: left to the code that reads it.
    sessionStorage.setItem('portal:return-to', '{"path":"/demo/info","email":"ada@example.com"}');
    sessionStorage.setItem('calculator:car', saved(null));
    sessionStorage.setItem('odd', '{not json');

    forgetOthersTabData('demo/ada@example.com');

    expect(Object.keys(sessionStorage).sort()).toEqual([
      'calculator:car',
      'calculator:warranty',
      'odd',
      'portal:return-to',
    ]);
  });
});
