import { Link } from 'react-router';
import { AuthLayout } from '../../../components/auth/auth-layout';
import { paths } from '../../../config/paths';
import { FaqAccordion } from './faq-accordion';

/** The public FAQ at /faqs, in the look of the sign-in pages. */
export function PublicFaqPage() {
  return (
    <AuthLayout>
      <h1 className="h3 mb-4">PipSense FAQ</h1>
      <FaqAccordion />
      <p className="mt-4 mb-0 small text-center">
        <Link to={paths.login}>Back to sign in</Link>
      </p>
    </AuthLayout>
  );
}
