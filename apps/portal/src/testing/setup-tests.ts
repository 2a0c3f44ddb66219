import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// The first render of a test file loads the route and its modules: about a second alone, and several times that on a
// machine also running the API suite (CI runs both at once; 5 s was once not enough). Tests time out at 20 s.
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
});
