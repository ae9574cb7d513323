import { Navigate, Route, Routes } from 'react-router';
import { paths } from '../config/paths';
import { RouteScreen } from './route-screen';
import { LoginPage, PublicFaqPage, RegisterPage } from './screens';

export function AuthRoutes() {
  return (
    <Routes>
      <Route path={paths.root} element={<Navigate to={paths.login} replace />} />
      <Route
        path={paths.login}
        element={
          <RouteScreen>
            <LoginPage />
          </RouteScreen>
        }
      />
      <Route
        path={paths.register}
        element={
          <RouteScreen>
            <RegisterPage />
          </RouteScreen>
        }
      />
      <Route
        path={paths.publicFaqs}
        element={
          <RouteScreen>
            <PublicFaqPage />
          </RouteScreen>
        }
      />
      <Route path="*" element={<Navigate to={paths.login} replace />} />
    </Routes>
  );
}
