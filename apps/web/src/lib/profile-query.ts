import { useQuery } from '@tanstack/react-query';
import type { MeResponse } from '@pipsense/contract';
import { config } from '../config/env';
import { authRequest } from './api';
import { queryKeys } from './query-keys';

/** GET {backend}/api/v1/auth/me: the signed-in user, read by the header, the layout and the Profile screen. */
export const useProfile = () =>
  useQuery({
    queryKey: queryKeys.profile,
    queryFn: ({ signal }) =>
      authRequest<MeResponse>('GET', `${config.backend}/api/v1/auth/me`, undefined, signal).then((b) => b.data),
    staleTime: 60_000,
  });
