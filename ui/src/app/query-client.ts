import { QueryClient } from '@tanstack/react-query';

/** One query cache for the app; the guards read the signed-in user through it too. */
export const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
