import { Outlet } from 'react-router-dom';

export function ClientRoot() {
  return <Outlet />;
}
