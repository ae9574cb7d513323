import type { Envelope, LoginBody, LoginResponse, RegisterBody } from '@pipsense/contract';
import { config } from '../../../config/env';
import { publicRequest } from '../../../lib/api';
import { existsLookups } from '../../../lib/exists-lookups';

const base = `${config.backend}/api/v1/auth`;

export const login = (body: LoginBody) => publicRequest<LoginResponse>('POST', `${base}/login`, { ...body });
export const register = (body: RegisterBody) => publicRequest<Envelope>('POST', `${base}/register`, { ...body });

export const { usernameExists, emailExists } = existsLookups(publicRequest);

/** Account recovery and email confirmation (public: the emailed links may open in any browser). */
export const requestPasswordReset = (email: string) =>
  publicRequest<Envelope>('POST', `${base}/request_password_reset`, { email });
export const resetPassword = (token: string, password: string) =>
  publicRequest<Envelope>('POST', `${base}/reset_password`, { token, password });
export const confirmEmail = (token: string) => publicRequest<Envelope>('POST', `${base}/confirm_email`, { token });
