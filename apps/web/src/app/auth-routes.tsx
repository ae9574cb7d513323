import { Navigate, Route, Routes } from 'react-router';
import { paths } from '../config/paths';
import { screenRoute } from './route-screen';
import { authScreens } from './screens';

export function AuthRoutes() {
  return (
    <Routes>
      <Route path={paths.root} element={<Navigate to={paths.login} replace />} />
      {authScreens.map(screenRoute)}
      <Route path="*" element={<Navigate to={paths.login} replace />} />
    </Routes>
  );
}
