import { Navigate, Route, Routes } from 'react-router';
import { paths } from '../config/paths';
import { AppLayout } from '../components/layout/app-layout';
import { RouteScreen } from './route-screen';
import { mainScreens, PublicFaqPage } from './screens';

/** The signed-in app: every main route inside the layout; an unknown path shows the spec's plain text. */
export function MainRoutes() {
  return (
    <Routes>
      <Route path={paths.root} element={<Navigate to={paths.overview} replace />} />
      <Route path={paths.login} element={<Navigate to={paths.overview} replace />} />
      <Route path={paths.register} element={<Navigate to={paths.overview} replace />} />
      <Route
        path={paths.publicFaqs}
        element={
          <RouteScreen>
            <PublicFaqPage />
          </RouteScreen>
        }
      />
      <Route element={<AppLayout />}>
        {mainScreens.map(({ path, Screen }) => (
          <Route
            key={path}
            path={path}
            element={
              <RouteScreen>
                <Screen />
              </RouteScreen>
            }
          />
        ))}
        <Route path="*" element={<>Auth Page Not Found</>} />
      </Route>
    </Routes>
  );
}
