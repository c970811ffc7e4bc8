import { createBrowserRouter, redirect } from 'react-router';
import { session } from '../lib/session.ts';
import { HomeRoute } from './routes/home.tsx';
import { LoginRoute } from './routes/login.tsx';

/** Without a stored jwt, a page that is not public sends the user to login with the full original path. */
const requireSession = ({ request }: { request: Request }) => {
  if (session.token()) return null;
  const url = new URL(request.url);
  throw redirect(`/prijava?redirect=${encodeURIComponent(url.pathname + url.search)}`);
};

export const router = createBrowserRouter([
  { path: '/prijava', element: <LoginRoute /> },
  { path: '/', loader: requireSession, element: <HomeRoute /> },
]);
