import { useQuery } from '@tanstack/react-query';
import type { Envelope, MeResponse } from '@pipsense/contract';
import { config } from '../../../config/env';
import { authRequest } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { existsLookups } from '../../auth/api/auth-api';

const auth = `${config.backend}/api/v1/auth`;
const account = `${config.backend}/api/v1/account`;

export const useProfile = () =>
  useQuery({
    queryKey: queryKeys.profile,
    queryFn: ({ signal }) => authRequest<MeResponse>('GET', `${auth}/me`, undefined, signal).then((b) => b.data),
    staleTime: 60_000,
  });

/** The profile screen's lookups go with the token. */
export const { usernameExists: checkUsernameExists, emailExists: checkEmailExists } = existsLookups(authRequest);

export const updateUsernameEmail = (new_username: string, new_email: string) =>
  authRequest<MeResponse>('POST', `${account}/update_username_email`, { new_username, new_email });
export const updatePassword = (new_password: string) =>
  authRequest<Envelope>('POST', `${account}/update_password`, { new_password });
