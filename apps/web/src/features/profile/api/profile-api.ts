import { useQuery } from '@tanstack/react-query';
import type { Envelope, ExistsResponse, MeResponse } from '@pipsense/contract';
import { config } from '../../../config/env';
import { authRequest } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

const auth = `${config.backend}/api/v1/auth`;
const account = `${config.backend}/api/v1/account`;

export const useProfile = () =>
  useQuery({
    queryKey: queryKeys.profile,
    queryFn: ({ signal }) => authRequest<MeResponse>('GET', `${auth}/me`, undefined, signal).then((b) => b.data),
    staleTime: 60_000,
  });

/** The profile screen's lookups read `data.exists`; a failed lookup counts as 'does not exist' (SPEC §8). */
const exists = (path: string, payload: Record<string, string>) =>
  authRequest<ExistsResponse>('POST', `${auth}/${path}`, payload).then(
    (body) => body.exists,
    () => false,
  );
export const checkUsernameExists = (username: string) => exists('check_username_exist', { username });
export const checkEmailExists = (email: string) => exists('check_email_exist', { email });

export const updateUsernameEmail = (new_username: string, new_email: string) =>
  authRequest<MeResponse>('POST', `${account}/update_username_email`, { new_username, new_email });
export const updatePassword = (new_password: string) =>
  authRequest<Envelope>('POST', `${account}/update_password`, { new_password });
