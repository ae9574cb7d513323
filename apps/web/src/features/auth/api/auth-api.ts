import type { Envelope, LoginBody, LoginResponse, RegisterBody } from '@pipsense/contract';
import { config } from '../../../config/env';
import { publicRequest } from '../../../lib/api';
import { existsLookups } from '../../../lib/exists-lookups';

const base = `${config.backend}/api/v1/auth`;

export const login = (body: LoginBody) => publicRequest<LoginResponse>('POST', `${base}/login`, { ...body });
export const register = (body: RegisterBody) => publicRequest<Envelope>('POST', `${base}/register`, { ...body });

export const { usernameExists, emailExists } = existsLookups(publicRequest);
