import { hasToken } from '../lib/token';
import { Providers } from './providers';
import { AuthRoutes } from './auth-routes';
import { MainRoutes } from './main-routes';

/** SPEC §2: with a stored token the whole app is the authenticated layout; otherwise only the auth routes. */
export function App() {
  return <Providers>{hasToken() ? <MainRoutes /> : <AuthRoutes />}</Providers>;
}
