import { Link } from 'react-router';
import { CButton } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilCloudUpload } from '@coreui/icons';
import { paths } from '../../config/paths';

/** MetaTrader data comes from the terminal's reports, so its screens offer Import where OANDA's sync. */
export function ImportButton({ variant }: { variant?: 'outline' }) {
  return (
    <CButton
      as={Link}
      to={paths.tradesImport}
      color="primary"
      variant={variant}
      className="d-inline-flex align-items-center gap-2 text-nowrap"
    >
      <CIcon icon={cilCloudUpload} aria-hidden="true" />
      Import
    </CButton>
  );
}
