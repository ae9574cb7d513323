import { useState, type FormEvent } from 'react';
import { CFormInput } from '@coreui/react';
import type { Profile } from '@pipsense/contract';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { FormCard } from './form-card';
import { queryKeys } from '../../../lib/query-keys';
import { useSubmit } from '../../../lib/use-submit';
import { checkEmailExists, checkUsernameExists, updateUsernameEmail } from '../api/profile-api';

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Mount with a key of the saved profile, so a refreshed profile refills the fields. */
export function UpdateProfileCard({ profile }: { profile: Profile }) {
  const [username, setUsername] = useState(profile.username);
  const [email, setEmail] = useState(profile.email);
  const { busy, run } = useSubmit('An error occurred while updating the profile');
  const client = useQueryClient();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const nextUsername = username.trim();
    const nextEmail = email.trim();
    const usernameChanged = nextUsername !== profile.username;
    // The server keeps emails in lower case, so a change of case alone changes nothing.
    const emailChanged = !sameName(nextEmail, profile.email);
    if (!usernameChanged && !emailChanged) {
      toast.info('No changes made to the profile');
      return;
    }
    await run(async () => {
      // Usernames are unique regardless of case: recasing your own name is not a clash with yourself.
      if (usernameChanged && !sameName(nextUsername, profile.username) && (await checkUsernameExists(nextUsername))) {
        toast.error('Username already exists');
        return;
      }
      if (emailChanged && (await checkEmailExists(nextEmail))) {
        toast.error('Email already exists');
        return;
      }
      const result = await updateUsernameEmail(nextUsername, nextEmail);
      toast.success('Profile updated successfully');
      client.setQueryData(queryKeys.profile, result.data);
      await client.invalidateQueries({ queryKey: queryKeys.profile });
    });
  }

  return (
    <FormCard title="Update Profile" busy={busy} onSubmit={onSubmit}>
      <div className="mb-3">
        <CFormInput
          id="profile-username"
          label="Username"
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          text="3–32 characters: letters, digits, dot, dash or underscore."
        />
      </div>
      <div className="mb-4">
        <CFormInput
          id="profile-email"
          type="email"
          label="Email address"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </div>
    </FormCard>
  );
}
