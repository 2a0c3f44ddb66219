import useSWRMutation from 'swr/mutation';

import { paths } from '@/config/paths';
import { apiFetch } from '@/lib/api-client';
import type { LoginRequest, LoginResponse } from '@/types/api';

/** POST /api/{client}/login: `redirect` is a path (open policy, session started) or false (link e-mailed). */
export function login(prefix: string, details: LoginRequest): Promise<LoginResponse> {
  return apiFetch<LoginResponse>(paths.api.login(prefix), { method: 'POST', json: details });
}

export function useLogin(prefix: string) {
  return useSWRMutation(
    paths.api.login(prefix),
    (_key: string, { arg }: { arg: LoginRequest }) => login(prefix, arg),
    { throwOnError: false },
  );
}
