import { afterEach, describe, expect, it, vi } from 'vitest';

// Thirtieth session: every staff command loaded the content importer and its parsers (JSDOM), about a second of
// start-up for `client list`; they are loaded now by the commands that use them.
describe('the staff tool at start', () => {
  afterEach(() => {
    vi.doUnmock('jsdom');
    vi.doUnmock('../../src/services/content-import.js');
    vi.resetModules();
  });

  it('should not load the content importer or JSDOM until a command needs them', async () => {
    const loaded: string[] = [];
    vi.doMock('jsdom', () => {
      loaded.push('jsdom');
      return {};
    });
    vi.doMock('../../src/services/content-import.js', () => {
      loaded.push('content-import');
      return {};
    });
    vi.resetModules();
    const cli = await import('../../src/cli/admin-cli.js');
    expect(cli.USAGE).toContain('content import');
    expect(loaded).toEqual([]);
    // The mocks work: importing the importer is seen.
    await import('../../src/services/content-import.js');
    expect(loaded).toEqual(['content-import']);
  });
});
