import { useCallback, useState } from 'react';

import { paths } from '@/config/paths';
import { isLoginResponse } from '@/lib/answer-shapes';
import { apiFetch } from '@/lib/api-client';
import type { LoginRequest, LoginResponse } from '@/types/api';

/** POST /api/{client}/login: `redirect` is a path (open policy, session started) or false (link e-mailed). */
export function login(prefix: string, details: LoginRequest): Promise<LoginResponse> {
  return apiFetch<LoginResponse>(paths.api.login(prefix), {
    method: 'POST',
    json: details,
    shape: isLoginResponse,
  });
}

/**
 * The login call as the form needs it: `trigger` resolves with the answer, or undefined after a failure (then in
 * `error`). Plain React state rather than SWR, so that the login page stays light.
 */
export function useLogin(prefix: string) {
  const [isMutating, setIsMutating] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const trigger = useCallback(
    async (details: LoginRequest): Promise<LoginResponse | undefined> => {
      setIsMutating(true);
      setError(null);
      try {
        return await login(prefix, details);
      } catch (failure) {
        setError(failure);
        return undefined;
      } finally {
        setIsMutating(false);
      }
    },
    [prefix],
  );

  const reset = useCallback(() => setError(null), []);
  return { trigger, isMutating, error, reset };
}
