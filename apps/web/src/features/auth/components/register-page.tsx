import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { CButton, CForm, CFormInput, CFormText, CSpinner } from '@coreui/react';
import { toast } from 'react-toastify';
import { AuthLayout } from '../../../components/auth/auth-layout';
import { paths } from '../../../config/paths';
import { useSubmit } from '../../../lib/use-submit';
import { emailExists, register, usernameExists } from '../api/auth-api';
import { passwordMatchHint, validateRegistration, type RegisterForm } from '../validation';

const empty: RegisterForm = { username: '', email: '', password: '', confirmPassword: '' };
const successMessage = 'Registration successful! You can now log in.';

export function RegisterPage() {
  const [form, setForm] = useState<RegisterForm>(empty);
  const { busy, run } = useSubmit('Registration failed.');
  const navigate = useNavigate();
  const hint = passwordMatchHint(form.password, form.confirmPassword);
  const field = (name: keyof RegisterForm) => ({
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: e.target.value })),
  });

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    await run(async () => {
      const problem = await validateRegistration(form, { usernameExists, emailExists });
      if (problem) {
        toast.error(problem);
        return;
      }
      await register({ username: form.username.trim(), email: form.email.trim(), password: form.password });
      toast.success(successMessage);
      void navigate(paths.login, { state: { message: successMessage } });
    });
  }

  return (
    <AuthLayout>
      <h1 className="h3 mb-4">Create your account</h1>
      <CForm onSubmit={onSubmit} noValidate>
        <CFormInput
          className="mb-3"
          id="reg-username"
          label="Username"
          autoComplete="username"
          {...field('username')}
        />
        <CFormInput
          className="mb-3"
          id="reg-email"
          type="email"
          label="Email"
          autoComplete="email"
          {...field('email')}
        />
        <CFormInput
          className="mb-3"
          id="reg-password"
          type="password"
          label="Password"
          autoComplete="new-password"
          {...field('password')}
        />
        <div className="mb-4">
          <CFormInput
            id="reg-confirm"
            type="password"
            label="Confirm Password"
            autoComplete="new-password"
            {...field('confirmPassword')}
          />
          {hint && (
            <CFormText className={hint.ok ? 'text-success' : 'text-danger'} role="status">
              {hint.text}
            </CFormText>
          )}
        </div>
        <CButton type="submit" color="primary" className="w-100" disabled={busy}>
          {busy && <CSpinner size="sm" className="me-2" aria-hidden="true" />}Sign Up
        </CButton>
      </CForm>
      <p className="mt-4 mb-0 small text-center">
        Already have an account? <Link to={paths.login}>Sign In</Link>
      </p>
    </AuthLayout>
  );
}
