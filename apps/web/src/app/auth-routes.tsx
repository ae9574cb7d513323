import { Navigate, Route, Routes } from 'react-router';
import { paths } from '../config/paths';
import { LoginPage } from '../features/auth/components/login-page';
import { RegisterPage } from '../features/auth/components/register-page';
import { PublicFaqPage } from '../features/faq/components/public-faq-page';

export function AuthRoutes() {
  return (
    <Routes>
      <Route path={paths.root} element={<Navigate to={paths.login} replace />} />
      <Route path={paths.login} element={<LoginPage />} />
      <Route path={paths.register} element={<RegisterPage />} />
      <Route path={paths.publicFaqs} element={<PublicFaqPage />} />
      <Route path="*" element={<Navigate to={paths.login} replace />} />
    </Routes>
  );
}
