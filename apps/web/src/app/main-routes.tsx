import { Navigate, Route, Routes } from 'react-router';
import { paths } from '../config/paths';
import { AppLayout } from '../components/layout/app-layout';
import { screenRoute } from './route-screen';
import { mainScreens, publicScreens } from './screens';

/** The signed-in app: every main route inside the layout; an unknown path shows the spec's plain text. */
export function MainRoutes() {
  return (
    <Routes>
      <Route path={paths.root} element={<Navigate to={paths.overview} replace />} />
      <Route path={paths.login} element={<Navigate to={paths.overview} replace />} />
      <Route path={paths.register} element={<Navigate to={paths.overview} replace />} />
      {publicScreens.map(screenRoute)}
      <Route element={<AppLayout />}>
        {mainScreens.map(screenRoute)}
        <Route path="*" element={<>Auth Page Not Found</>} />
      </Route>
    </Routes>
  );
}
