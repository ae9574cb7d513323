import { hasToken } from '../lib/token';
import { lazyChunk } from '../components/errors/lazy-chunk';
import { Providers } from './providers';
import { AuthRoutes } from './auth-routes';
import { RouteScreen } from './route-screen';

// The signed-in layout (sidebar, header, their icons and dropdowns) is its own chunk: the login form never waits for
// it.
const MainRoutes = lazyChunk('main-routes', () => import('./main-routes'), 'MainRoutes');

/**
 * docs/PRODUCT.md, Routes: with a stored token the whole app is the authenticated layout; otherwise only the auth
 * routes.
 */
export function App() {
  return (
    <Providers>
      {hasToken() ? (
        <RouteScreen>
          <MainRoutes />
        </RouteScreen>
      ) : (
        <AuthRoutes />
      )}
    </Providers>
  );
}
