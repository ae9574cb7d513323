export interface RegisterForm {
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
}

interface ExistenceChecks {
  usernameExists: (username: string) => Promise<boolean>;
  emailExists: (email: string) => Promise<boolean>;
}

/**
 * docs/PRODUCT.md, Validation, in its order: required, username taken, email taken, passwords match. Returns the first
 * failure, or null.
 */
export async function validateRegistration(form: RegisterForm, checks: ExistenceChecks): Promise<string | null> {
  if (!form.username.trim() || !form.email.trim() || !form.password || !form.confirmPassword)
    return 'All fields are required.';
  if (await checks.usernameExists(form.username.trim())) return 'Username already exists.';
  if (await checks.emailExists(form.email.trim())) return 'Email already exists.';
  if (form.password !== form.confirmPassword) return 'Passwords do not match';
  return null;
}

/** The live hint under Confirm Password. */
export function passwordMatchHint(password: string, confirm: string): { text: string; ok: boolean } | null {
  if (!confirm) return null;
  return password === confirm ? { text: 'Passwords match', ok: true } : { text: 'Passwords do not match', ok: false };
}
