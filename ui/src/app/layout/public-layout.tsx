import { Box, Container } from '@mantine/core';
import { Outlet, useLocation } from 'react-router';
import { Logo } from '../../components/logo.tsx';

/** Pages reachable without signing in (login has its own layout). */
export const PublicLayout = () => {
  const { pathname } = useLocation();
  if (pathname === '/prijava') return <Outlet />;
  return (
    <Box mih="100vh" bg="var(--mantine-color-gray-0)">
      <Box component="header" py="md" bg="var(--mantine-color-white)" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="md">
          <Logo />
        </Container>
      </Box>
      <Container size="md" py="xl" component="main" id="main">
        <Outlet />
      </Container>
    </Box>
  );
};
