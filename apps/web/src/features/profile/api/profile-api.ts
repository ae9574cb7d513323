import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Envelope, ExistsResponse, MeResponse } from '@pipsense/contract';
import { config } from '../../../config/env';
import { authRequest, unwrap } from '../../../lib/api';

const auth = `${config.backend}/api/v1/auth`;
const account = `${config.backend}/api/v1/account`;

export const profileQuery = queryOptions({
  queryKey: ['profile'],
  queryFn: () => unwrap(authRequest<MeResponse>('GET', `${auth}/me`)).then((b) => b.data),
  staleTime: 60_000,
});
export const useProfile = () => useQuery(profileQuery);

/** The profile screen's lookups read `data.exists`; a failed lookup counts as 'does not exist'. */
async function exists(path: string, payload: Record<string, string>): Promise<boolean> {
  const result = await authRequest<ExistsResponse>('POST', `${auth}/${path}`, payload);
  return result.success ? result.data.exists : false;
}
export const checkUsernameExists = (username: string) => exists('check_username_exist', { username });
export const checkEmailExists = (email: string) => exists('check_email_exist', { email });

export const updateUsernameEmail = (new_username: string, new_email: string) =>
  authRequest<MeResponse>('POST', `${account}/update_username_email`, { new_username, new_email });
export const updatePassword = (new_password: string) =>
  authRequest<Envelope>('POST', `${account}/update_password`, { new_password });
