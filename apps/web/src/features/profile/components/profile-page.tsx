import { CAlert, CCol, CRow, CSpinner } from '@coreui/react';
import { useProfile } from '../../../lib/profile-query';
import { ChangePasswordCard } from './change-password-card';
import { UpdateProfileCard } from './update-profile-card';
import { TimeZoneCard } from './time-zone-card';
import { HomeCurrencyCard } from './home-currency-card';
import { DeleteAccountCard } from './delete-account-card';

export function ProfilePage() {
  const profile = useProfile();

  if (profile.isPending)
    return (
      <div className="d-flex align-items-center gap-2 py-5 justify-content-center text-body-secondary" role="status">
        <CSpinner size="sm" aria-hidden="true" />
        Loading your profile…
      </div>
    );
  if (profile.isError)
    return (
      <CAlert color="danger" role="alert">
        <strong>Your profile could not be loaded.</strong> {profile.error.message}
      </CAlert>
    );

  const { username, email } = profile.data;
  return (
    <CRow xs={{ cols: 1, gutter: 4 }} lg={{ cols: 2 }} className="profile-cards">
      <CCol>
        <UpdateProfileCard key={`${username}\n${email}`} profile={profile.data} />
      </CCol>
      <CCol>
        <ChangePasswordCard />
      </CCol>
      <CCol>
        <TimeZoneCard />
      </CCol>
      <CCol>
        <HomeCurrencyCard />
      </CCol>
      <CCol>
        <DeleteAccountCard />
      </CCol>
    </CRow>
  );
}
