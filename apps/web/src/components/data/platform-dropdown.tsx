import { CBadge, CDropdown, CDropdownItem, CDropdownMenu, CDropdownToggle } from '@coreui/react';
import { TRADING_PLATFORMS } from '@pipsense/contract';
import { tradingBase, type PlatformName } from '../../config/env';

interface PlatformDropdownProps {
  value: PlatformName;
  onChange: (platform: PlatformName) => void;
  /** 'sm' beside small buttons (the Patterns screen's toolbar). */
  size?: 'sm';
}

/**
 * docs/PRODUCT.md, Overview and Trade list: the trading-platform switch of the Overview, Trades, Accounts and Patterns
 * screens; OANDA first.
 */
export function PlatformDropdown({ value, onChange, size }: PlatformDropdownProps) {
  return (
    <CDropdown className="platform-dropdown">
      <CDropdownToggle color="secondary" variant="outline" size={size} aria-label={`Trading platform: ${value}`}>
        {value}
      </CDropdownToggle>
      <CDropdownMenu>
        {TRADING_PLATFORMS.map((platform) => (
          <CDropdownItem
            key={platform}
            as="button"
            type="button"
            active={platform === value}
            className="d-flex align-items-center justify-content-between gap-3"
            onClick={() => onChange(platform)}
          >
            <span>{platform}</span>
            {tradingBase(platform) === null && (
              <CBadge color="secondary" shape="rounded-pill" className="fw-normal">
                Not connected
              </CBadge>
            )}
          </CDropdownItem>
        ))}
      </CDropdownMenu>
    </CDropdown>
  );
}
