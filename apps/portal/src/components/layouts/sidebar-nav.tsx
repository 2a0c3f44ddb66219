import { useId } from 'react';
import { NavLink } from 'react-router-dom';
import styled from 'styled-components';

import { paths } from '@/config/paths';

interface NavItem {
  label: string;
  href: (prefix: string) => string;
}

interface NavGroup {
  label: string;
  items: readonly NavItem[];
}

/** The sidebar's entries, labels exactly as spec §1–§2. Groups have no link of their own. */
export const NAVIGATION: readonly (NavItem | NavGroup)[] = [
  { label: 'Dashboard', href: paths.app.dashboard },
  {
    label: 'Insurance Framework',
    items: [
      { label: 'Insurance Framework', href: paths.app.insuranceFramework },
      { label: 'Development Insurance Guide', href: paths.app.insuranceGuide },
      { label: 'Information Hub', href: paths.app.info },
      { label: 'Sample Report', href: paths.app.sampleReport },
    ],
  },
  {
    label: 'Cost Calculator',
    items: [
      { label: 'Building Warranty Calculator', href: paths.app.calculator.buildingWarranty },
      { label: 'Contractors All Risks Calculator', href: paths.app.calculator.contractorsAllRisks },
      { label: 'BTR Warranty + Loss of Rent Calculator', href: paths.app.calculator.btrWarranty },
    ],
  },
  { label: 'Request Due Diligence', href: (prefix) => paths.app.dueDiligence(prefix) },
];

interface SidebarNavProps {
  prefix: string;
  /** Called when an entry is chosen (the phone drawer closes itself). */
  onNavigate?: () => void;
}

/** The hub's main navigation. The current entry is bold and carries aria-current="page" (NavLink). */
export function SidebarNav({ prefix, onNavigate }: SidebarNavProps) {
  return (
    <nav aria-label="Main">
      <List>
        {NAVIGATION.map((entry) =>
          'items' in entry ? (
            <Group key={entry.label} group={entry} prefix={prefix} onNavigate={onNavigate} />
          ) : (
            <li key={entry.label}>
              <Link to={entry.href(prefix)} end onClick={onNavigate}>
                {entry.label}
              </Link>
            </li>
          ),
        )}
      </List>
    </nav>
  );
}

function Group({ group, prefix, onNavigate }: { group: NavGroup } & SidebarNavProps) {
  const labelId = useId();
  return (
    <li>
      <GroupLabel id={labelId}>{group.label}</GroupLabel>
      <SubList aria-labelledby={labelId}>
        {group.items.map((item) => (
          <li key={item.label}>
            <Link to={item.href(prefix)} end onClick={onNavigate}>
              {item.label}
            </Link>
          </li>
        ))}
      </SubList>
    </li>
  );
}

const List = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
`;

const SubList = styled(List)`
  gap: 0;
  margin-top: ${({ theme }) => theme.space.xxs};
  padding-left: ${({ theme }) => theme.space.sm};
  border-left: 2px solid ${({ theme }) => theme.color.divider};
`;

const GroupLabel = styled.span`
  display: block;
  padding: ${({ theme }) => `${theme.space.xs} ${theme.space.sm}`};
  font-size: ${({ theme }) => theme.fontSize.sm};
  font-weight: ${({ theme }) => theme.fontWeight.medium};
  text-transform: uppercase;
  letter-spacing: 0.04em;
  color: ${({ theme }) => theme.color.muted};
`;

const Link = styled(NavLink)`
  display: block;
  padding: ${({ theme }) => `${theme.space.xs} ${theme.space.sm}`};
  border-radius: ${({ theme }) => theme.radius.sm};
  color: ${({ theme }) => theme.color.text};
  text-decoration: none;

  &:hover {
    background: ${({ theme }) => theme.color.background};
    text-decoration: underline;
  }

  &[aria-current='page'] {
    font-weight: ${({ theme }) => theme.fontWeight.bold};
    color: ${({ theme }) => theme.color.primary};
    background: ${({ theme }) => theme.color.background};
  }
`;
